import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.ts';
import { createPassiveJudge } from './passive-judge.ts';

const contract = await loadContract({ validate: false, lazyValidators: true });
const OIDC = '/api/admin/auth/oidc/settings';
const HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** The 401 the mock answers a read without a key, with an id (and any other field) of the test's choosing. */
function unauthorized(fields: Record<string, unknown> = {}, headers: Record<string, string> = HEADERS) {
  return { status: 401, headers, body: JSON.stringify({ id: crypto.randomUUID(), name: 'AuthenticationRequired', message: 'You must log in to use Unleash.', ...fields }) };
}

describe('the passive judge on answers that repeat but in their per-instance fields', () => {
  const checksOf = (found: { checkId: string }[] | undefined) => found?.map((f) => f.checkId);

  it('judges a 401 afresh when anything but a per-instance field differs from the one before: a field, a member added, a header', () => {
    const judge = createPassiveJudge({ contract, baseUrl: 'http://127.0.0.1:1', strict: true });
    const read = (response: ReturnType<typeof unauthorized>, key?: string) => checksOf(judge.judge({ method: 'GET', target: OIDC, key, response }));
    // Two conformant answers first, so that the next ones have one to repeat but for the id and the message.
    expect(read(unauthorized())).toEqual([]);
    expect(read(unauthorized({ message: 'another wording, as the spec allows' }))).toEqual([]);
    expect(read(unauthorized({ name: 'NoAccessError' }))).toEqual(['error-kind-conformance']);
    expect(read(unauthorized())).toEqual([]);
    expect(read(unauthorized({ extra: 1 }))).toEqual(['undocumented-properties']);
    expect(read(unauthorized())).toEqual([]);
    expect(read(unauthorized({}, { 'content-type': 'text/plain' }))).toEqual(['content-type-conformance']);
    expect(read(unauthorized(), 'a-key-the-backend-does-not-know')).toEqual([]);
    expect(read(unauthorized(), 'a-key-the-backend-does-not-know')).toEqual([]);
    expect(read(unauthorized({}, { ...HEADERS, 'cache-control': 'public, max-age=60' }), 'a-key-the-backend-does-not-know')).toEqual(['shared-caches-kept-out']);
    expect(read(unauthorized())).toEqual([]);
    // The same members in another order, or a member twice: the raw text differs, so it is judged afresh.
    const doubled = unauthorized();
    expect(read({ ...doubled, body: doubled.body.replace('{', '{"name":"AuthenticationRequired",') })).toEqual(['json-members-unique']);
  });

  it('still runs the rules that read per-instance fields: an id given twice, a message that quotes the key, a message that is no string', () => {
    const judge = createPassiveJudge({ contract, baseUrl: 'http://127.0.0.1:1' });
    const read = (response: ReturnType<typeof unauthorized>, key?: string) => checksOf(judge.judge({ method: 'GET', target: OIDC, key, response }));
    const first = unauthorized();
    expect(read(first)).toEqual([]);
    expect(read(unauthorized())).toEqual([]);
    expect(read(unauthorized({ id: JSON.parse(first.body).id }))).toEqual(['error-ids-unique']);
    const key = 'not-a-key-but-long-enough';
    expect(read(unauthorized(), key)).toEqual([]);
    expect(read(unauthorized(), key)).toEqual([]);
    expect(read(unauthorized({ message: `the key ${key} is not known` }), key)).toEqual(['no-secret-echo']);
    expect(read(unauthorized())).toEqual([]);
    expect(read(unauthorized({ message: 42 }))).toEqual(['response-schema-conformance']);
  });

  it('remembers the ids of answers judged alike by their bytes: one given again, there or in full, is found; so is an id that quotes the key', () => {
    const judge = createPassiveJudge({ contract, baseUrl: 'http://127.0.0.1:1' });
    const read = (response: ReturnType<typeof unauthorized>, key?: string) => checksOf(judge.judge({ method: 'GET', target: OIDC, key, response }));
    expect(read(unauthorized())).toEqual([]);
    const alike = unauthorized();
    expect(read(alike)).toEqual([]);
    expect(read(unauthorized())).toEqual([]);
    expect(read(unauthorized({ id: JSON.parse(alike.body).id }))).toEqual(['error-ids-unique']);
    expect(read(unauthorized({ id: JSON.parse(alike.body).id, message: 'worded otherwise' }))).toEqual(['error-ids-unique']);
    const key = 'not-a-key-but-long-enough';
    expect(read(unauthorized(), key)).toEqual([]);
    expect(read(unauthorized(), key)).toEqual([]);
    expect(read(unauthorized({ id: `id-${key}` }), key)).toEqual(['no-secret-echo']);
    expect(read(unauthorized(), key)).toEqual([]);
    const report = judge.report();
    expect(report.summary.requests).toBe(9);
    expect(report.coverage.find((c) => c.operationId === 'getOidcSettings' && c.status === '401')).toMatchObject({ provoked: 9, outcome: 'not conformant' });
  });

  it('reads an error text again once the secrets it is read against change, and finds an echo every time it repeats (no-secret-echo remembers texts per list of secrets)', () => {
    const judge = createPassiveJudge({ contract, baseUrl: 'http://127.0.0.1:1' });
    // With a key in every request, there is a secret to read each text against from the start.
    const read = (response: ReturnType<typeof unauthorized>) => checksOf(judge.judge({ method: 'GET', target: OIDC, key: 'a-key-the-backend-does-not-know', response }));
    const secret = 'an-oidc-secret-learned-later';
    const quoting = { message: `configured with ${Buffer.from(secret).toString('base64')}` };
    // Read clean while the secret is not known yet.
    expect(read(unauthorized(quoting))).toEqual([]);
    const oidc = { enabled: true, discoverUrl: 'https://login.example.com/.well-known/openid-configuration', clientId: 'flag-admin', secret, autoCreate: false, enableSingleSignOut: false, defaultRootRole: 'Viewer' };
    judge.judge({ method: 'GET', target: OIDC, key: 'the-admin-key-of-this-test', response: { status: 200, headers: HEADERS, body: JSON.stringify(oidc) } });
    // The same text, now that the secret is known: an echo, each time it comes again.
    expect(read(unauthorized(quoting))).toEqual(['no-secret-echo']);
    expect(read(unauthorized(quoting))).toEqual(['no-secret-echo']);
    expect(read(unauthorized())).toEqual([]);
  });

  it('judges a 401 in full once the model has learned something since the last one: here, that the key is valid', () => {
    const judge = createPassiveJudge({ contract, baseUrl: 'http://127.0.0.1:1' });
    const key = 'a-key-that-proves-valid';
    const read = (response: ReturnType<typeof unauthorized>) => checksOf(judge.judge({ method: 'GET', target: OIDC, key, response }));
    expect(read(unauthorized())).toEqual([]);
    expect(read(unauthorized())).toEqual([]);
    const environments = { status: 200, headers: HEADERS, body: JSON.stringify({ version: 1, environments: [] }) };
    judge.judge({ method: 'GET', target: '/api/admin/environments/project/default', key, response: environments });
    expect(read(unauthorized())).toEqual(['documented-success']);
  });

  it('counts an answer judged so as judged, in the report and its coverage', () => {
    const judge = createPassiveJudge({ contract, baseUrl: 'http://127.0.0.1:1' });
    for (let i = 0; i < 5; i++) judge.judge({ method: 'GET', target: OIDC, key: undefined, response: unauthorized() });
    const report = judge.report();
    expect(report.summary.requests).toBe(5);
    expect(report.coverage.find((c) => c.operationId === 'getOidcSettings' && c.status === '401')).toMatchObject({ provoked: 5, outcome: 'conformant' });
  });
});
