import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../../src/contract/index.ts';
import type { Exchange } from '../../types.ts';
import type { RuleContext } from '../rule.ts';
import { connectionIndependent } from './connection-independent.ts';
import { headLikeGet } from './head-like-get.ts';
import { optionsHarmless } from './options-harmless.ts';
import { pipelinedAnswersInOrder } from './pipelined-answers-in-order.ts';
import { pipelinedFramingKept } from './pipelined-framing-kept.ts';

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract({ validate: false });
});
const OIDC = '/api/admin/auth/oidc/settings';
let seq = 0;
function exchange(partial: Partial<Exchange> & { status?: number; body?: string; headers?: Record<string, string> }): Exchange {
  const { status = 200, body = '', headers = {}, ...rest } = partial;
  return {
    operationId: 'getOidcSettings',
    step: 'variant',
    label: 'a variant',
    credential: 'full',
    method: 'GET',
    path: OIDC,
    expects: [],
    seq: seq++,
    request: { method: 'GET', url: `http://127.0.0.1:1${OIDC}`, headers: {} },
    response: { status, headers, body },
    ...rest,
  };
}
const context = (all: Exchange[]): RuleContext => ({ contract, strict: false, all, excerpt: { secretProperties: new Set(), redact: (s: string) => s } as unknown as RuleContext['excerpt'] });
const verdicts = (rule: typeof headLikeGet, exchanges: Exchange[]) => rule.judge(exchanges, context(exchanges)).map((j) => j.verdict);

describe('head-like-get', () => {
  const get = () => exchange({ step: 'read', headers: { 'content-type': 'application/json' }, body: '{}' });
  it("passes a HEAD with the GET's Content-Type, fails one with another", () => {
    const head = (type: string) => exchange({ method: 'HEAD', variant: { kind: 'head', chain: 0 }, headers: { 'content-type': type } });
    expect(verdicts(headLikeGet, [get(), head('application/json; charset=utf-8')])).toEqual(['passed']);
    expect(verdicts(headLikeGet, [get(), head('text/html')])).toEqual(['failed']);
  });

  it('passes a 405, the answer of a server that routes no HEAD', () => {
    expect(verdicts(headLikeGet, [exchange({ method: 'HEAD', status: 405, variant: { kind: 'head', chain: 0 }, headers: { allow: 'GET' } })])).toEqual(['passed']);
  });
});

describe('options-harmless', () => {
  const options = (status: number, body = '', credential: Exchange['credential'] = 'none') => exchange({ method: 'OPTIONS', status, body, credential, variant: { kind: 'preflight', chain: 0 } });
  it('passes 204 without a body, a refusal, and an Allow list in a body', () => {
    expect(verdicts(optionsHarmless, [options(204), options(401, '{"id":"1","name":"AuthenticationRequired","message":"x"}'), options(200, '{"methods":["GET"]}')])).toEqual(['passed', 'passed', 'passed']);
  });

  it("fails an answer with the operation's data, or a status no OPTIONS gets", () => {
    expect(verdicts(optionsHarmless, [options(200, '{"enabled":true,"secret":"s"}'), options(302)])).toEqual(['failed', 'failed']);
  });
});

describe('connection-independent', () => {
  it('fails a variant whose answer broke the framing, naming what the connection carried before', () => {
    const before = exchange({ method: 'HEAD', variant: { kind: 'head', chain: 3, fresh: true } });
    const after = exchange({ response: undefined, transportError: '13 bytes arrived on the connection before this request was sent', variant: { kind: 'bare', chain: 3, fresh: false } });
    const [judgement] = connectionIndependent.judge([after], context([before, after]));
    expect(judgement).toMatchObject({ verdict: 'failed', finding: { message: expect.stringContaining(`the connection had just carried HEAD ${OIDC} with the full key (answered 200)`) } });
  });
});

describe('pipelined-answers-in-order', () => {
  const alone = (status: number, body: string) => exchange({ step: 'read', status, body });
  const pipelined = (status: number, body: string) => exchange({ status, body, variant: { kind: 'pipelined', chain: 9, pipelined: true, fresh: false } });
  it("passes the answer the same request got alone (values may differ), fails another status or another body's fields", () => {
    const all = [alone(200, '{"enabled":true,"secret":"a"}'), pipelined(200, '{"secret":"b","enabled":false}'), pipelined(401, '{"id":"1","name":"AuthenticationRequired","message":"x"}'), pipelined(200, '{"version":1,"environments":[]}')];
    const judged = pipelinedAnswersInOrder.judge(all, context(all));
    expect(judged.map((j) => j.verdict)).toEqual(['passed', 'failed', 'failed']);
    expect(judged[1]).toMatchObject({ finding: { message: expect.stringContaining('RFC 9112 §9.3.2'), contradicts: all[0]!.seq } });
  });

  it('fails a pipelined request without a well-formed answer', () => {
    const broken = exchange({ response: undefined, transportError: 'the bytes on the connection are not an HTTP answer', variant: { kind: 'pipelined', chain: 9, pipelined: true } });
    expect(verdicts(pipelinedAnswersInOrder, [broken])).toEqual(['failed']);
  });
});

describe('pipelined-framing-kept', () => {
  it('warns once for a batch whose pipelined answers broke the framing (sent again one at a time), passes a clean batch', () => {
    const batch = (why?: string) => [0, 1].map(() => exchange({ variant: { kind: 'pipelined', chain: 9, pipelined: true, ...(why ? { pipelineBroken: why } : {}) } }));
    expect(verdicts(pipelinedFramingKept, batch())).toEqual(['passed', 'passed']);
    const [judgement, ...rest] = pipelinedFramingKept.judge(batch('request 2 of 2: not an HTTP answer'), context([]));
    expect(rest).toEqual([]);
    expect(judgement).toMatchObject({ verdict: 'failed', finding: { message: expect.stringContaining('at request 2 of 2: not an HTTP answer') } });
  });
});
