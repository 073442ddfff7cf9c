import { describe, expect, it } from 'vitest';
import type { Exchange } from '../types.ts';
import { failed, passed, type Judgement } from './rule.ts';
import { withoutBaseDefects } from './without-base-defects.ts';

const OIDC = '/api/admin/auth/oidc/settings';
const at = (seq: number, partial: Partial<Exchange> & { status: number }): Exchange => {
  const { status, ...rest } = partial;
  return { operationId: 'getOidcSettings', step: 'no-credentials', label: `#${seq}`, credential: 'none', method: 'GET', path: OIDC, expects: [], seq, request: { method: 'GET', url: OIDC, headers: {} }, response: { status, headers: {}, body: '' }, ...rest };
};
const fail = (exchange: Exchange, contradicts?: number): Judgement => failed({ exchange, message: exchange.label, expected: '', got: '', ...(contradicts !== undefined ? { contradicts } : {}) });
const kept = (judged: Judgement[][]) => judged.map((js) => js.filter((j) => j.verdict === 'failed').map((j) => (j as { finding: { exchange: Exchange } }).finding.exchange.label));

describe('withoutBaseDefects: a variant judged relative to its base request', () => {
  const base = at(0, { status: 200 });
  it("drops a variant's finding where it got what its failing base got", () => {
    const head = at(1, { status: 200, method: 'HEAD', step: 'variant', variant: { kind: 'head', chain: 0 } });
    expect(kept(withoutBaseDefects([[fail(base)], [fail(head)]], [base, head]))).toEqual([['#0'], []]);
  });

  it('keeps what only the variant gets, and every finding when the base passed', () => {
    const good = at(0, { status: 401 });
    const variant = at(1, { status: 200, step: 'variant', variant: { kind: 'x-requested-with', chain: 0 } });
    expect(kept(withoutBaseDefects([[passed(good)], [fail(variant)]], [good, variant]))).toEqual([[], ['#1']]);
  });

  it('drops a finding that says only that the variant differs from a wrong answer', () => {
    const right = at(1, { status: 401, step: 'variant', variant: { kind: 'empty-authorization', chain: 0 } });
    expect(kept(withoutBaseDefects([[fail(base)], [fail(right, 0)]], [base, right]))).toEqual([['#0'], []]);
  });

  it("for the full key compares the same resource only: a variant's 404 on another project is its own", () => {
    const fullBase = at(0, { status: 404, credential: 'full', path: '/api/admin/environments/project/default', operationId: 'getProjectEnvironments', step: 'read' });
    const other = at(1, { status: 404, credential: 'full', path: '/api/admin/environments/project/other', operationId: 'getProjectEnvironments', step: 'variant', variant: { kind: 'bare', chain: 0 } });
    expect(kept(withoutBaseDefects([[fail(fullBase)], [fail(other)]], [fullBase, other]))).toEqual([['#0'], ['#1']]);
  });
});
