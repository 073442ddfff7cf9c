import type { Contract } from '../../../src/contract/index.ts';
import { failed, ordinaryResponses, passed, type Judgement, type Rule } from '../rule.ts';

/**
 * An answer to a request that carried a key is the caller's: a shared cache (a CDN, a corporate
 * proxy) may store and reuse it for other clients only when a field it obeys says so (spec
 * decision shared-caches). Cache-Control speaks to every cache: `public` and `s-maxage` let a
 * shared cache reuse it (RFC 9111 §3.5). A field that targets shared caches in Cache-Control's
 * place (RFC 9213's `CDN-Cache-Control` and its vendor family, `Surrogate-Control`,
 * `Edge-Control`) speaks to them alone, so there a `max-age` is the CDN's time to keep it. Which
 * fields and directives is the spec's list (`x-shared-cache-fields` under `info`), read here,
 * never copied: each field is judged on its own, `private` or `no-store` in it keeps it out, and
 * a directive with a time counts only above 0.
 */
export interface SharedCacheFields {
  /** Field names, `*` standing for a vendor's name (one or more token characters). */
  fields: readonly string[];
  /** Directives that let a shared cache store the answer and reuse it for others. */
  offers: readonly string[];
  /** Directives that keep shared caches out when they are in the same field. */
  keepsOut: readonly string[];
}

export const SHARED_CACHE_FIELDS = 'x-shared-cache-fields';

/** The spec's groups of fields a shared cache obeys (decision shared-caches); an error names the pointer when the list is malformed. */
export function sharedCacheFields(contract: Contract): readonly SharedCacheFields[] {
  const list = (contract.rawDocument.info as Record<string, unknown> | undefined)?.[SHARED_CACHE_FIELDS];
  const strings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');
  if (!Array.isArray(list) || !list.every((g) => g && typeof g === 'object' && strings(g.fields) && strings(g.offers) && strings(g.keepsOut))) {
    throw new Error(`the spec's /info/${SHARED_CACHE_FIELDS} is not a list of { fields, offers, keepsOut } string lists (decision shared-caches)`);
  }
  return list as SharedCacheFields[];
}

const fieldPattern = (name: string) => new RegExp(`^${name.toLowerCase().split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join("[!#$%&'*+.^_`|~0-9a-z-]+")}$`);

/** A field's directives: lower-case name (before `=` or `;`) and whether it is in force (a time above 0, or no time). */
function directives(value: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const item of value.split(',')) {
    const [rawName, rawValue] = item.split(';')[0]!.split('=') as [string, string | undefined];
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    // Surrogate-Control's `max-age=300+60`, Edge-Control's `cache-maxage=5m`: the leading number is the time.
    const time = rawValue === undefined ? undefined : /^\s*"?(\d+(?:\.\d+)?)/.exec(rawValue)?.[1];
    out.set(name, (out.get(name) ?? false) || rawValue === undefined || (time !== undefined && Number(time) > 0));
  }
  return out;
}

export const sharedCachesKeptOut: Rule = {
  id: 'shared-caches-kept-out',
  severity: 'error',
  title: 'An answer to a keyed request is not offered to shared caches',
  proves:
    'no answer to a request that carried a key is marked storable by shared caches in any field they obey: no `public` or `s-maxage` in its Cache-Control, and no `public`, `s-maxage`, `max-age`, `cache-maxage` or `!no-store` in a field that targets them in its place (`CDN-Cache-Control`, `Cloudflare-CDN-Cache-Control` and the other `*-CDN-Cache-Control`, `Surrogate-Control`, `Edge-Control`), unless `private` or `no-store` is in that same field (RFC 9111 §3.5, RFC 9213 §2.1; spec decision shared-caches, `x-shared-cache-fields`)',
  level: 'response',
  judge: (exchanges, context) => {
    const groups = sharedCacheFields(context.contract).map((g) => ({ ...g, patterns: g.fields.map(fieldPattern), offers: g.offers.map((d) => d.toLowerCase()), keepsOut: g.keepsOut.map((d) => d.toLowerCase()) }));
    return ordinaryResponses(exchanges).flatMap((exchange): Judgement[] => {
      // A key moved out of the header (a query parameter, a cookie) is no key (decision key-in-header-only): that request carries none.
      if (exchange.credential === 'none' || exchange.keyVariant?.placement) return [];
      const offering: string[] = [];
      for (const [name, value] of Object.entries(exchange.response.headers)) {
        const group = groups.find((g) => g.patterns.some((p) => p.test(name.toLowerCase())));
        if (!group || value === undefined) continue;
        const said = directives(String(value));
        const offered = group.offers.filter((d) => said.get(d) === true);
        if (offered.length > 0 && !group.keepsOut.some((d) => said.has(d))) offering.push(`${name}: ${value} (${offered.join(', ')})`);
      }
      if (offering.length === 0) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the answer to a request with a key tells a shared cache (a CDN, a proxy) it may store it and serve it to others, without a key, in ${offering.join('; ')} (RFC 9111 §3.5; RFC 9213 §2.1: a CDN obeys the field that targets it in Cache-Control's place).`,
          expected: 'no field a shared cache obeys offers it (`private` or `no-store` in any field that says `public`, `s-maxage`, or, in a targeted field, a `max-age` above 0)',
          got: offering.join('; '),
        }),
      ];
    });
  },
};
