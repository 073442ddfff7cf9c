import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import { equivalentPathsScenario, encodedAt } from './equivalent-paths.ts';
import { liveTokenMethodsScenario } from './live-token-methods.ts';
import type { PlanInput } from './plan-input.ts';
import { planInputFor } from './plan-input.fixture.ts';

const contract = await loadContract({ validate: false });
const input = (overrides: Partial<PlanInput> = {}): PlanInput => planInputFor(contract, { tokens: [{ account: '1', token: '1' }, { account: '1', token: '2' }, { account: '2', token: '4' }], ...overrides });

describe('equivalent spellings of a path (RFC 3986 §6.2.2)', () => {
  it('percent-encodes the first letter of a segment in lower-case hex', () => {
    expect(encodedAt('/api/admin/environments/project/default', 2)).toBe('/api/%61dmin/environments/project/default');
    expect(encodedAt('/api/admin/auth/oidc/settings', 4)).toBe('/api/admin/auth/%6fidc/settings');
  });

  it('sends every operation without a key on its first and last static segment, and the restricted key on each --forbidden one', () => {
    const { requests } = equivalentPathsScenario(input());
    const none = requests.filter((r) => r.credential === 'none');
    expect(new Set(none.map((r) => r.operationId)).size).toBe(contract.operations.filter((o) => o.authHeaders.length > 0).length);
    expect(none.some((r) => r.path.startsWith('/%61pi/'))).toBe(true);
    expect(none.every((r) => r.expects.includes(401) && !r.expects.includes(200))).toBe(true);
    const restricted = requests.filter((r) => r.credential === 'restricted');
    const encoded = restricted.filter((r) => !r.path.endsWith('/'));
    expect(encoded.map((r) => r.operationId).sort()).toEqual(['deleteServiceAccountToken', 'getOidcSettings']);
    expect(restricted.every((r) => r.expects.includes(403) && !r.expects.includes(200))).toBe(true);
    expect(encoded.every((r) => /%[0-9a-f]{2}/.test(r.path))).toBe(true);
    // Never a given token for the key without: the ids are the harmless ones.
    expect(none.filter((r) => r.operationId === 'deleteServiceAccountToken').every((r) => r.path.includes('no-such-token'))).toBe(true);
  });

  it('sends the restricted key to the trailing slash of each --forbidden operation, on the delete a real token it must not delete (red team round nine)', () => {
    const slashed = equivalentPathsScenario(input()).requests.filter((r) => r.credential === 'restricted' && r.path.endsWith('/'));
    expect(slashed.map((r) => [r.operationId, r.path])).toEqual([
      ['getOidcSettings', '/api/admin/auth/oidc/settings/'],
      ['deleteServiceAccountToken', '/api/admin/service-account/1/token/1/'],
    ]);
    expect(slashed.every((r) => r.step === 'equivalent-path-restricted' && r.expects.includes(403) && !r.expects.includes(200))).toBe(true);
    // Without --allow-delete the delete's slash goes to ids that cannot exist.
    const harmless = equivalentPathsScenario(input({ allowDelete: false })).requests.filter((r) => r.credential === 'restricted' && r.path.endsWith('/') && r.operationId === 'deleteServiceAccountToken');
    expect(harmless.every((r) => r.path.includes('no-such-token'))).toBe(true);
  });
});

describe('methods the spec does not list, at a live token', () => {
  it('aim every method but the delete, and the delete spelled in another case, at the first token when there is no bystander', () => {
    const { requests } = liveTokenMethodsScenario(input());
    expect(requests.slice(0, -1).map((r) => r.method)).toEqual(['GET', 'PUT', 'POST', 'PATCH', 'HEAD', 'OPTIONS']);
    // RFC 9110 §9.1: `delete` is not DELETE; it goes on a planned connection (the raw send-chain writes the method as spelled).
    const spelled = requests.at(-1)!;
    expect(spelled.method).not.toBe('DELETE');
    expect(spelled.method.toUpperCase()).toBe('DELETE');
    expect(spelled.connection).toBeDefined();
    expect(new Set(requests.map((r) => r.path))).toEqual(new Set(['/api/admin/service-account/1/token/1']));
    expect(requests.every((r) => r.credential === 'full' && r.step === 'unlisted-method')).toBe(true);
  });

  it('aim them at a bystander, deleted last, when there is one; nothing without --allow-delete', () => {
    const tokens = [...input().tokens, { account: '12', token: '1' }];
    expect(new Set(liveTokenMethodsScenario(input({ tokens })).requests.map((r) => r.path))).toEqual(new Set(['/api/admin/service-account/12/token/1']));
    expect(liveTokenMethodsScenario(input({ allowDelete: false })).requests).toEqual([]);
  });
});
