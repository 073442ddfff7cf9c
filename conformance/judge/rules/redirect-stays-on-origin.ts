import { failed, passed, type Judgement, type Rule } from '../rule.ts';

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * A redirect the contract allows (spec decision trailing-slash: 301 or 308 to the path without
 * the slash; router-refusals, an equivalent spelling to its normal form) sends the client on to
 * the operation, on this server: its Location (RFC 9110 §10.2.2), resolved against the request
 * URL (RFC 3986 §5.2), keeps the request's scheme, host and port, and, from a trailing slash,
 * names the path without it. A Location built from the app's own listening address behind a
 * proxy (`http://localhost:3000/...`), or one missing, leaves the client elsewhere or nowhere.
 */
export const redirectStaysOnOrigin: Rule = {
  id: 'redirect-stays-on-origin',
  severity: 'error',
  title: 'A redirect stays on this server',
  proves:
    'a redirect (301, 302, 303, 307, 308) carries a Location that, resolved against the request URL, keeps its scheme, host and port, and from a path with a trailing slash names the path without it (spec decision trailing-slash; RFC 9110 §10.2.2)',
  level: 'behaviour',
  // Where the contract allows a redirect; an answer there that is none passes (the rule ran).
  steps: ['trailing-slash', 'equivalent-path', 'equivalent-path-restricted'],
  judge: (exchanges) =>
    exchanges.flatMap((exchange): Judgement[] => {
      const status = exchange.response?.status;
      if (status === undefined) return [];
      if (!REDIRECTS.has(status)) return [passed(exchange)];
      const location = exchange.response!.headers.location;
      const asked = new URL(exchange.request.url);
      let target: URL | undefined;
      try {
        target = location === undefined ? undefined : new URL(location.trim(), asked);
      } catch {
        target = undefined;
      }
      const withoutSlash = asked.pathname.replace(/\/+$/, '');
      const wrongPath = exchange.step === 'trailing-slash' && target !== undefined && target.pathname !== withoutSlash;
      if (target !== undefined && target.origin === asked.origin && !wrongPath) return [passed(exchange)];
      const expected = exchange.step === 'trailing-slash' ? `a Location naming ${withoutSlash} on ${asked.origin}` : `a Location on ${asked.origin}`;
      return [
        failed({
          exchange,
          message:
            target === undefined
              ? `${exchange.label}: a ${status} redirect ${location === undefined ? 'without a Location' : `whose Location (${JSON.stringify(location)}) is no URI reference`}: the client has nowhere to go (RFC 9110 §10.2.2).`
              : target.origin !== asked.origin
                ? `${exchange.label}: the ${status} redirect sends the client to another origin, ${target.origin}, not the server it asked (${asked.origin}).`
                : `${exchange.label}: the ${status} redirect names ${target.pathname}, not the path without the trailing slash (spec decision trailing-slash).`,
          expected,
          got: location === undefined ? 'no Location' : `Location: ${location}`,
        }),
      ];
    }),
};
