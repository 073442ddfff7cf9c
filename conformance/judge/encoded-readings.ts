/**
 * The readings of a text in which an answer may carry a secret without spelling it: the text, and
 * its percent-encoded, base64 (and base64url) and hex runs decoded, each reading decoded once more
 * (base64 of JSON holding a percent-encoded value), UTF-16 NULs dropped. What no-secret-echo reads
 * an answer's header values and body strings through: a key or the OIDC secret handed out
 * encoded is handed out all the same (issue 18's round eight: a 401 with a base64 `trace` of the
 * service's configuration). Bounded: runs shorter than a secret can encode are not decoded, and
 * at most MAX_READINGS readings per text, so an error body costs a few regular-expression scans
 * (the report's redactor reads many more forms, for hiding runs of a few characters; this proves
 * a whole secret, per answer, within the check's CPU budget).
 */
const MAX_READINGS = 64;

/** The two patterns per length of the shortest secret: a run reads every header and body string of a run with the same one. */
const runPatterns = new Map<number, { base64Run: RegExp; hexRun: RegExp }>();

export function encodedReadings(text: string, shortestSecret: number): string[] {
  const out = [text];
  let patterns = runPatterns.get(shortestSecret);
  if (!patterns) {
    patterns = {
      base64Run: new RegExp(`[A-Za-z0-9+/_-]{${Math.max(4, Math.ceil((shortestSecret * 4) / 3))},}={0,2}`, 'g'),
      hexRun: new RegExp(`[0-9A-Fa-f]{${2 * shortestSecret},}`, 'g'),
    };
    runPatterns.set(shortestSecret, patterns);
  }
  const { base64Run, hexRun } = patterns;
  const add = (decoded: string) => {
    if (out.length >= MAX_READINGS || decoded.length < shortestSecret) return;
    out.push(decoded);
    // UTF-16 (LE or BE) read as bytes: every other character a NUL.
    if (decoded.includes('\0')) out.push(decoded.replace(/\0/g, ''));
  };
  for (let depth = 0, from = 0; depth < 2; depth++) {
    const until = out.length;
    for (let i = from; i < until; i++) {
      const reading = out[i]!;
      if (/%[0-9A-Fa-f]{2}/.test(reading)) add(reading.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
      for (const run of runsOf(base64Run, reading)) add(Buffer.from(run, 'base64').toString('latin1'));
      for (const run of runsOf(hexRun, reading)) for (const shift of [0, 1]) add(Buffer.from(run.slice(shift, run.length - ((run.length - shift) % 2)), 'hex').toString('latin1'));
    }
    from = until;
  }
  return out;
}

/**
 * The matches of a global pattern in a text, as `text.matchAll(pattern)` gives them, without the copy
 * of the pattern matchAll makes per call (ECMA-262 §22.2.6.9: a new RegExp from its species): on a
 * proxy that judged a 401 per request with a secret known, those copies were most of this
 * function's own time (`--cpu-prof`, 2026-11-28). The patterns never match empty, and the runs
 * are taken before any other use of the pattern (add() does not use it).
 */
function runsOf(pattern: RegExp, text: string): string[] {
  const runs: string[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) runs.push(match[0]);
  return runs;
}
