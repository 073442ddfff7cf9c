import { describe, expect, it } from 'vitest';
import type { Exchange } from '../types.ts';
import { deletedEarlierBy } from './token-history.ts';

const token = { account: '1', token: '1' };
const exchange = (seq: number, step: Exchange['step'], method: string, status: number): Exchange =>
  ({ seq, step, method, token, label: `${method} token 1/1`, operationId: 'deleteServiceAccountToken', credential: 'full', path: '/api/admin/service-account/1/token/1', expects: [], request: { method, url: 'http://127.0.0.1:1/api/admin/service-account/1/token/1', headers: {} }, response: { status, headers: {}, body: '' } }) as Exchange;

describe('deletedEarlierBy', () => {
  it('names an earlier successful DELETE of another step on the same token', () => {
    expect(deletedEarlierBy([exchange(1, 'variant', 'DELETE', 200), exchange(2, 'delete', 'DELETE', 404)], exchange(2, 'delete', 'DELETE', 404))).toContain('already deleted');
  });

  it('leaves out successes to safe methods: a preflight answered 204 or a HEAD answered 200 deleted nothing (RFC 9110 §9.2.1)', () => {
    const later = exchange(3, 'delete', 'DELETE', 404);
    expect(deletedEarlierBy([exchange(1, 'variant', 'OPTIONS', 204), exchange(2, 'variant', 'HEAD', 200), later], later)).toBeUndefined();
  });
});
