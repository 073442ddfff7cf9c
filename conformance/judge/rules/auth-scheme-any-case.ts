import { UNAUTHORIZED } from '../../http-status.ts';
import type { Exchange } from '../../types.ts';
import { VARIANT_KIND } from '../../plan/variants/variant-kinds.ts';
import { failed, passed, type Judgement, type Rule } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/** The scheme a variant sent before the key (kind auth-scheme-case), as spelled on the wire. */
const schemeOf = (exchange: Exchange) => VARIANT_KIND.get(exchange.variant!.kind)?.authSchemes?.[exchange.variant!.alternative ?? 0];

/**
 * Decision key-in-header-only: `Bearer <key>` may be taken as the key or refused (401), a server's choice; but the scheme is
 * case-insensitive (RFC 9110 §11.1), so the choice is one for every spelling. Among one valid key's requests after a scheme, either
 * every answer is a 401 or none is; a spelling refused where another got past auth is the defect. The model judges each answer
 * as the key's own or a 401 (allowed-answers.ts, schemeKey), and an invalid key after a scheme as no key.
 */
export const authSchemeAnyCase: Rule = {
  id: 'auth-scheme-any-case',
  severity: 'error',
  title: 'The auth scheme is case-insensitive',
  proves:
    'the full and the restricted key sent after the scheme `Bearer` spelled `Bearer`, `bearer`, `BEARER` and in mixed case (each operation and credential class once, the full key on every GET) are all taken as the key or all refused with 401: a server may refuse `Bearer <key>`, but not one spelling of it (RFC 9110 §11.1: the scheme is case-insensitive; spec decision key-in-header-only); an invalid key after the scheme is 401',
  level: 'behaviour',
  claims: [variantClaim('auth-scheme-any-case')],
  steps: ['variant'],
  judge: (exchanges) => {
    const sent = variantsOf(exchanges, 'auth-scheme-any-case').filter((e) => e.response);
    // Per key: the spellings of one key are compared (a server's key store may hold one key and not the other in the scheme form).
    const takenWith = (credential: Exchange['credential']) => sent.find((e) => e.credential === credential && e.response!.status !== UNAUTHORIZED);
    return sent.map((exchange): Judgement => {
      const taken = exchange.credential === 'full' || exchange.credential === 'restricted' ? takenWith(exchange.credential) : undefined;
      if (!taken || exchange.response!.status !== UNAUTHORIZED) return passed(exchange);
      return failed({
        exchange,
        message: `${exchange.label}: answered 401, yet request #${taken.seq} got past auth with the key after ${JSON.stringify(schemeOf(taken))} (${taken.response!.status}); the scheme is case-insensitive (RFC 9110 §11.1), so a server takes every spelling of it or none (decision key-in-header-only).`,
        expected: `what the key gets after ${JSON.stringify(schemeOf(taken))}: past auth`,
        got: 'status 401',
        contradicts: taken.seq,
      });
    });
  },
};
