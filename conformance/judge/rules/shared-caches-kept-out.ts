import { failed, ordinaryResponses, passed, type Judgement, type Rule } from '../rule.ts';

/**
 * An answer to a request that carried a key is the caller's: a shared cache (a CDN, a corporate
 * proxy) may store and reuse it for other clients only when the answer says so, with `public`,
 * `s-maxage` or `must-revalidate` (RFC 9111 §3.5). `public` and `s-maxage` say exactly that, so a
 * CDN rule that marks GETs under /api/admin/ `public, max-age=300` hands the OIDC secret to
 * requests without a key (spec decision shared-caches). `private` or `no-store` beside them
 * keeps shared caches out again (§5.2.2.7, §5.2.2.5); `must-revalidate` alone, `max-age`,
 * `no-cache` or no Cache-Control at all are fine.
 */
export const sharedCachesKeptOut: Rule = {
  id: 'shared-caches-kept-out',
  severity: 'error',
  title: 'An answer to a keyed request is not offered to shared caches',
  proves:
    'no answer to a request that carried a key is marked storable by shared caches: no `public` or `s-maxage` in its Cache-Control unless `private` or `no-store` is there too (RFC 9111 §3.5; spec decision shared-caches)',
  level: 'response',
  judge: (exchanges) =>
    ordinaryResponses(exchanges).flatMap((exchange): Judgement[] => {
      if (exchange.credential === 'none') return [];
      const cacheControl = exchange.response.headers['cache-control'];
      if (cacheControl === undefined) return [passed(exchange)];
      const directives = new Set(cacheControl.split(',').map((d) => d.split('=')[0]!.trim().toLowerCase()));
      const offered = ['public', 's-maxage'].filter((d) => directives.has(d));
      if (offered.length === 0 || directives.has('private') || directives.has('no-store')) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the answer to a request with a key says ${offered.join(' and ')}, so a shared cache (a CDN, a proxy) may store it and serve it to others, without a key (RFC 9111 §3.5).`,
          expected: 'no `public` or `s-maxage` (or `private` / `no-store` beside them)',
          got: `Cache-Control: ${cacheControl}`,
        }),
      ];
    }),
};
