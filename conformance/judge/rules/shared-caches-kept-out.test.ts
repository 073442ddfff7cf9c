import { describe, expect, it } from 'vitest';
import { createContract, loadContract } from '../../../src/contract/index.ts';
import { createPassiveJudge } from '../passive-judge.ts';
import { collectDecisions } from '../../../src/spec-review/decisions.ts';
import { SHARED_CACHE_FIELDS, sharedCacheFields } from './shared-caches-kept-out.ts';

const contract = await loadContract({ validate: false, lazyValidators: true });
const OIDC = '/api/admin/auth/oidc/settings';

/** The checks a keyed (or keyless) 401 with these headers fails, as the proxy judges one answer. */
function failing(headers: Record<string, string>, key: string | null = 'a-key-the-backend-does-not-know'): string[] {
  const judge = createPassiveJudge({ contract, baseUrl: 'http://127.0.0.1:1' });
  const body = JSON.stringify({ id: crypto.randomUUID(), name: 'AuthenticationRequired', message: 'You must log in to use Unleash.' });
  return (judge.judge({ method: 'GET', target: OIDC, key: key ?? undefined, response: { status: 401, headers: { 'content-type': 'application/json', ...headers }, body } }) ?? []).map((f) => f.checkId).filter((id) => id === 'shared-caches-kept-out');
}

describe('shared-caches-kept-out: every field a shared cache obeys (decision shared-caches, x-shared-cache-fields)', () => {
  it('reports a targeted field that lets the CDN keep a keyed answer, whatever Cache-Control says', () => {
    for (const headers of [
      { 'cdn-cache-control': 'max-age=60' },
      { 'cache-control': 'private', 'cloudflare-cdn-cache-control': 's-maxage=30' },
      { 'cache-control': 'no-store', 'surrogate-control': 'max-age=300+60;esi' },
      { 'edge-control': '!no-store' },
      { 'edge-control': 'cache-maxage=1h' },
      { 'vercel-cdn-cache-control': 'public' },
    ] as Record<string, string>[]) expect(failing(headers), JSON.stringify(headers)).toEqual(['shared-caches-kept-out']);
  });

  it('judges each field on its own: the CDN kept out does not make a public Cache-Control conformant', () => {
    expect(failing({ 'cache-control': 'public, max-age=60', 'cdn-cache-control': 'no-store' })).toEqual(['shared-caches-kept-out']);
  });

  it('passes what keeps shared caches out or keeps nothing fresh, and answers to requests without a key', () => {
    for (const headers of [
      { 'cdn-cache-control': 'private, max-age=60' },
      { 'surrogate-control': 'no-store' },
      { 'cdn-cache-control': 'max-age=0, must-revalidate' },
      { 'netlify-cdn-cache-control': 'no-cache' },
      { 'cache-control': 'max-age=60, must-revalidate' },
      { 'x-cdn-cache-status': 'public' },
    ] as Record<string, string>[]) expect(failing(headers), JSON.stringify(headers)).toEqual([]);
    expect(failing({ 'cdn-cache-control': 'public, max-age=60' }, null)).toEqual([]);
  });

  it('reads its lists from the spec, and the decision names every field and directive of them', () => {
    const decision = collectDecisions(contract.rawDocument).decisions.find((d) => d.id === 'shared-caches')!.decision;
    for (const group of sharedCacheFields(contract)) {
      for (const word of [...group.fields.map((f) => f.replace('*', '<vendor>')), ...group.offers, ...group.keepsOut]) expect(decision, word).toContain(`\`${word}\``);
    }
    const changed = structuredClone(contract.rawDocument) as { info: Record<string, unknown> };
    changed.info[SHARED_CACHE_FIELDS] = [{ fields: ['X-Edge-Cache'], offers: ['keep'], keepsOut: [] }];
    const judge = createPassiveJudge({ contract: createContract(changed as never), baseUrl: 'http://127.0.0.1:1' });
    const body = JSON.stringify({ id: 'x', name: 'AuthenticationRequired', message: 'm' });
    const found = judge.judge({ method: 'GET', target: OIDC, key: 'k', response: { status: 401, headers: { 'content-type': 'application/json', 'x-edge-cache': 'keep' }, body } }) ?? [];
    expect(found.map((f) => f.checkId)).toContain('shared-caches-kept-out');
    changed.info[SHARED_CACHE_FIELDS] = 'Cache-Control';
    expect(() => sharedCacheFields(createContract(changed as never))).toThrow(/\/info\/x-shared-cache-fields/);
  });
});
