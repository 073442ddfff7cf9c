import { failed, judgedBodies, parsedBodyOf, passed, type Judgement, type Rule } from '../rule.ts';

/**
 * A JSON body names each member of an object once (RFC 8259 §4: names SHOULD be unique, and
 * parsers differ on a repeat; I-JSON, RFC 7493 §2.3: MUST; spec decision json-members-unique).
 * `JSON.parse` keeps the last of two, another parser the first, so a body written as defaults and
 * settings joined as text (`{"enabled":false,…,"enabled":true}`) reads as two answers. The suite
 * parses with `JSON.parse`, so it scans the text itself for repeats.
 */
export const jsonMembersUnique: Rule = {
  id: 'json-members-unique',
  severity: 'error',
  title: 'No member named twice in one JSON object',
  proves:
    'no JSON body repeats a member name within one object (RFC 8259 §4, RFC 7493 §2.3; spec decision json-members-unique): parsers disagree on which of two wins',
  level: 'response',
  judge: (exchanges) =>
    judgedBodies(exchanges).flatMap((exchange): Judgement[] => {
      if (!parsedBodyOf(exchange.response).ok) return [];
      const repeat = repeatedMember(exchange.response.body);
      if (repeat === undefined) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the object at ${repeat.pointer || '(root)'} names ${JSON.stringify(repeat.name)} twice; JSON.parse reads the last, other parsers the first (RFC 8259 §4).`,
          expected: 'each member name once per object',
          got: `${JSON.stringify(repeat.name)} twice at ${repeat.pointer || '(root)'}`,
          instancePointer: repeat.pointer,
        }),
      ];
    }),
};

/** The first member name a JSON text repeats within one object, with the object's JSON pointer; one pass, no recursion. */
export function repeatedMember(text: string): { name: string; pointer: string } | undefined {
  // One frame per open object or array: the names seen (objects), and the token that leads to it from its parent.
  const frames: { names?: Set<string>; token: string; index: number }[] = [];
  let expectName = false;
  let lastName = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: find its end (escapes skipped), read it as JSON where it holds an escape.
      let end = i + 1;
      let escaped = false;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d === 0x5c) {
          escaped = true;
          end++;
        } else if (d === 0x22) break;
      }
      const raw = text.slice(i + 1, end);
      if (expectName) {
        const name = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const frame = frames[frames.length - 1]!;
        if (frame.names!.has(name)) return { name, pointer: pointerOf(frames) };
        frame.names!.add(name);
        lastName = name;
        expectName = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      const parent = frames[frames.length - 1];
      const token = parent === undefined ? '' : parent.names ? lastName : String(parent.index);
      frames.push(c === 0x7b ? { names: new Set(), token, index: 0 } : { token, index: 0 });
      expectName = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
      expectName = false;
    } else if (c === 0x2c) {
      const frame = frames[frames.length - 1];
      if (frame?.names) expectName = true;
      else if (frame) frame.index++;
    }
  }
  return undefined;
}

function pointerOf(frames: readonly { token: string }[]): string {
  return frames
    .slice(1)
    .map((f) => `/${f.token.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}
