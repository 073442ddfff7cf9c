import { failed, passed, type Rule } from '../rule.ts';
import type { Exchange } from '../../types.ts';

/**
 * RFC 9110 §12.5.3: a request's Accept-Encoding says which content codings its client can read;
 * `q=0` refuses one, a coding it does not name is refused unless `*` admits it, an empty value
 * asks for none, and no Accept-Encoding at all admits any. `identity` (no coding) stays
 * acceptable unless refused by name or by `*;q=0`. Spec decision required-request-headers: a
 * server may compress a body it is asked to, so an answer in a coding its request refused is one
 * its client cannot read. Judged on every answer whose request carried Accept-Encoding (the
 * suite's own requests carry none; the invariance kinds `browser`, `accept-any`, `long-values` and `accept-encoding-refused` do).
 */
export const contentCodingAccepted: Rule = {
  id: 'content-coding-accepted',
  severity: 'error',
  title: "An answer's content coding is one its request accepts",
  proves:
    'every answer to a request with Accept-Encoding is in a content coding that request accepts (RFC 9110 §12.5.3): none where it refuses a coding with `q=0`, names only `identity`, or is empty; the invariance variants send such values',
  level: 'response',
  judge: (exchanges) =>
    exchanges.flatMap((exchange) => {
      const accept = requestHeader(exchange, 'accept-encoding');
      if (!exchange.response || accept === undefined) return [];
      const sent = codingsOf(exchange.response.headers);
      const refused = sent.filter((coding) => !acceptable(coding, accept));
      if (refused.length === 0) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the answer is in the content coding ${refused.join(', ')}, which its request's Accept-Encoding ${JSON.stringify(accept)} does not accept (RFC 9110 §12.5.3${/q=0(?:\.0*)?\b/.test(accept) ? ': q=0 means "not acceptable"' : accept.trim() === '' ? ': an empty value asks for no coding' : ''}); a client that asked so cannot read it.`,
          expected: `a content coding Accept-Encoding: ${accept} accepts (identity, no Content-Encoding, always is here)`,
          got: `Content-Encoding: ${sent.join(', ')}`,
        }),
      ];
    }),
};

function requestHeader(exchange: Exchange, name: string): string | undefined {
  const found = Object.entries(exchange.request?.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}

/** The codings applied, in order (RFC 9110 §8.4); `identity` is none. */
function codingsOf(headers: Readonly<Record<string, string>>): string[] {
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === 'content-encoding')?.[1] ?? '';
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** Whether `coding` is acceptable to an Accept-Encoding value (RFC 9110 §12.5.3; x-gzip is gzip, §8.4.1.3). */
export function acceptable(coding: string, accept: string): boolean {
  const weights = new Map<string, number>();
  for (const member of accept.split(',')) {
    const [name = '', ...params] = member.split(';').map((p) => p.trim().toLowerCase());
    if (name === '') continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(weight) ? weight : 0);
  }
  const name = coding === 'x-gzip' ? 'gzip' : coding;
  if (name === 'identity') return (weights.get('identity') ?? (weights.has('*') && weights.get('*') === 0 ? 0 : 1)) > 0;
  return (weights.get(name) ?? weights.get('*') ?? 0) > 0;
}
