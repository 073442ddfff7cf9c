import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../../src/contract/index.ts';
import { curlLine } from '../../report/curl-line.ts';
import { generatedId } from '../../plan/generated-ids.ts';
import { bodyExcerpt } from '../../report/redact.ts';
import type { Exchange } from '../../types.ts';
import type { RuleContext } from '../rule.ts';
import { concurrentDeleteSingleSuccess } from './concurrent-delete-single-success.ts';
import { contentTypeConformance } from './content-type-conformance.ts';
import { crossAccountDeleteRejected } from './cross-account-delete-rejected.ts';
import { errorKindConformance } from './error-kind-conformance.ts';
import { oddIdRejected } from './odd-id-rejected.ts';
import { describesEnabledFlag } from './project-environments-enabled.ts';
import { responseSchemaConformance } from './response-schema-conformance.ts';
import { statusCodeDocumented } from './status-code-documented.ts';

let kit: Contract;
let ranges: Contract;
beforeAll(async () => {
  kit = await loadContract({ validate: false });
  ranges = await loadContract({ specFile: new URL('../../test/fixtures/ranges.yaml', import.meta.url).pathname });
});

let seq = 0;
function exchange(partial: Partial<Exchange> & { status?: number; body?: string; contentType?: string }): Exchange {
  const { status = 200, body = '', contentType, ...rest } = partial;
  return {
    operationId: 'getOidcSettings',
    step: 'read',
    label: 'a request',
    credential: 'full',
    method: 'GET',
    path: '/x',
    expects: [200],
    seq: seq++,
    request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: {} },
    response: { status, headers: contentType === undefined ? {} : { 'content-type': contentType }, body },
    ...rest,
  };
}
const context = (contract: Contract, all: Exchange[] = []): RuleContext => ({ contract, strict: false, all, excerpt: { secretProperties: contract.secretProperties, redact: (text) => text } });
const verdicts = (judgements: { verdict: string }[]) => judgements.map((j) => j.verdict);

describe('status-code-documented', () => {
  it('accepts a status the spec documents only as a range (4XX)', () => {
    const teapot = exchange({ operationId: 'getThing', status: 418, body: '{"message":"no"}', contentType: 'application/json' });
    expect(verdicts(statusCodeDocumented.judge([teapot], context(ranges)))).toEqual(['passed']);
  });

  it('leaves a 5xx to not-a-server-error and hostile probes to their own checks', () => {
    const crash = exchange({ status: 500 });
    const odd = exchange({ status: 400, step: 'odd-id' });
    expect(statusCodeDocumented.judge([crash, odd], context(kit))).toEqual([]);
  });
});

describe('content-type-conformance', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])('accepts %s', (contentType) => {
    expect(verdicts(contentTypeConformance.judge([exchange({ body: '{}', contentType })], context(kit)))).toEqual(['passed']);
  });

  it.each([undefined, 'text/html', 'application/problem+json'])('rejects %s for a JSON body', (contentType) => {
    expect(verdicts(contentTypeConformance.judge([exchange({ body: '{}', contentType })], context(kit)))).toEqual(['failed']);
  });

  it('checks the media type of a range-documented status too', () => {
    const teapot = exchange({ operationId: 'getThing', status: 418, body: '{"message":"no"}', contentType: 'text/plain' });
    expect(verdicts(contentTypeConformance.judge([teapot], context(ranges)))).toEqual(['failed']);
  });
});

describe('response-schema-conformance and error-kind-conformance', () => {
  it('reports every violation with authored schema pointers and instance pointers', () => {
    const body = JSON.stringify({ defaultRootRole: 'Owner', enabled: 'yes', secret: 7 });
    const judgements = responseSchemaConformance.judge([exchange({ body, contentType: 'application/json' })], context(kit));
    const findings = judgements.flatMap((j) => (j.verdict === 'failed' ? [j.finding] : []));
    expect(findings.map((f) => [f.instancePointer, f.schemaPointer])).toEqual([
      ['/enabled', '/components/schemas/OidcSettings/properties/enabled/type'],
      ['/secret', '/components/schemas/OidcSettings/properties/secret/type'],
      ['/defaultRootRole', '/components/schemas/OidcSettings/properties/defaultRootRole/enum'],
    ]);
    // The value of a password-format property is never quoted, even when it is the offending part.
    expect(findings[1]!.got).toBe('"<redacted>"');
  });

  it('reports a wrong error kind once, under error-kind-conformance, with the kind read from the spec', () => {
    const wrongKind = exchange({ status: 401, body: JSON.stringify({ id: '1', name: 'Unauthorized', message: 'no' }), contentType: 'application/json' });
    expect(verdicts(responseSchemaConformance.judge([wrongKind], context(kit)))).toEqual(['passed']);
    const [judgement] = errorKindConformance.judge([wrongKind], context(kit));
    expect(judgement).toMatchObject({ verdict: 'failed', finding: { expected: '"AuthenticationRequired"', got: '"Unauthorized"', instancePointer: '/name' } });
  });

  it('says a body that is not JSON is not JSON', () => {
    const [judgement] = responseSchemaConformance.judge([exchange({ body: '<html>', contentType: 'text/html' })], context(kit));
    expect(judgement).toMatchObject({ verdict: 'failed', finding: { got: 'a body that is not JSON' } });
  });
});

describe('stateful checks', () => {
  const deleteOp = { operationId: 'deleteServiceAccountToken', method: 'DELETE', token: { account: '1', token: '2' } };

  it('cross-account-delete-rejected: flags a token removed by a request that answered 404', () => {
    const own = exchange({ ...deleteOp, step: 'delete', status: 200, token: { account: '1', token: '1' } });
    const cross = exchange({ ...deleteOp, step: 'cross-account-delete', status: 404, expects: [404] });
    const after = exchange({ ...deleteOp, step: 'delete-after-cross', status: 404 });
    expect(verdicts(crossAccountDeleteRejected.judge([cross, after], context(kit, [own, cross, after])))).toEqual(['passed', 'failed']);
  });

  it('cross-account-delete-rejected: draws no conclusion when no delete succeeds at all', () => {
    const own = exchange({ ...deleteOp, step: 'delete', status: 404, token: { account: '1', token: '1' } });
    const cross = exchange({ ...deleteOp, step: 'cross-account-delete', status: 404, expects: [404] });
    const after = exchange({ ...deleteOp, step: 'delete-after-cross', status: 404 });
    expect(verdicts(crossAccountDeleteRejected.judge([cross, after], context(kit, [own, cross, after])))).toEqual(['passed', 'not checked']);
  });

  it('concurrent-delete-single-success: shows the sorted statuses, whichever request won', () => {
    const batch = [404, 200, 200, 404].map((status) => exchange({ ...deleteOp, step: 'concurrent-delete', status, expects: [200, 404] }));
    const [judgement] = concurrentDeleteSingleSuccess.judge(batch, context(kit));
    expect(judgement).toMatchObject({ verdict: 'failed', finding: { got: 'statuses 200, 200, 404, 404', response: null } });
  });
});

describe('odd-id-rejected', () => {
  it.each([
    [404, 'passed'],
    [405, 'passed'],
    [401, 'passed'],
    [400, 'failed'],
    [414, 'failed'],
    [200, 'failed'],
  ])('judges %i on an odd project id as %s', (status, verdict) => {
    const odd = exchange({ operationId: 'getProjectEnvironments', step: 'odd-id', status, expects: [] });
    expect(verdicts(oddIdRejected.judge([odd], context(kit)))).toEqual([verdict]);
  });

  it('leaves a 5xx to not-a-server-error', () => {
    expect(oddIdRejected.judge([exchange({ operationId: 'getProjectEnvironments', step: 'odd-id', status: 502 })], context(kit))).toEqual([]);
  });
});

describe('helpers', () => {
  it('redacts password-format properties at any depth', () => {
    const body = JSON.stringify({ a: [{ secret: 's3' }], secret: 'x' });
    expect(bodyExcerpt(body, { ok: true, value: JSON.parse(body) }, { secretProperties: new Set(['secret']), redact: (text) => text })).toBe('{"a":[{"secret":"<redacted>"}],"secret":"<redacted>"}');
  });

  it('writes curl lines whose key is a shell variable and whose other values are escaped', () => {
    const line = curlLine({ method: 'GET', url: "http://h/a'b", headers: { Authorization: '$FLAG_ADMIN_API_KEY', 'x-odd': 'a"$b' } }, 'full');
    expect(line).toBe(`curl -i --path-as-is --globoff -X GET -H "Authorization: $FLAG_ADMIN_API_KEY" -H "x-odd: a\\"\\$b" 'http://h/a'\\''b'`);
  });

  it('generates the same id for the same seed and purpose, another for another', () => {
    expect(generatedId('s', 'project')).toBe(generatedId('s', 'project'));
    expect(generatedId('s', 'project')).not.toBe(generatedId('s', 'token'));
    expect(generatedId('s', 'project')).not.toBe(generatedId('t', 'project'));
  });

  it('finds environments[].enabled in the spec (the field API §4.1 rule is about)', () => {
    expect(describesEnabledFlag(kit)).toBe(true);
  });
});

describe('deep bodies', () => {
  it('judges a body nested deeper than MAX_JSON_DEPTH no further: one finding, no parse', () => {
    const deep = `{"version":1,"environments":${'['.repeat(300)}${']'.repeat(300)}}`;
    const judged = responseSchemaConformance.judge([exchange({ operationId: 'getProjectEnvironments', body: deep, contentType: 'application/json' })], context(kit));
    expect(judged.map((j) => (j.verdict === 'failed' ? j.finding.got : j.verdict))).toEqual(['JSON nested 301 levels deep']);
  });

  it('counts brackets inside strings as text', () => {
    const body = JSON.stringify({ version: 1, environments: [{ name: '['.repeat(1000) }] });
    expect(verdicts(responseSchemaConformance.judge([exchange({ operationId: 'getProjectEnvironments', body, contentType: 'application/json' })], context(kit)))).toEqual(['passed']);
  });
});
