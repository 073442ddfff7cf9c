import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import { allowedAnswers, createRunState, credentialOf, judgeExchange, judgeRun, type ModelCredential, type ModelExchange } from './index.ts';

const contract = await loadContract();
const ENV = '/api/admin/environments/project/default';
const TOKEN = '/api/admin/service-account/1/token/1';
const json = { 'content-type': 'application/json' };
const error = (status: number, name: string, id: string) => ({ status, headers: json, body: JSON.stringify({ id, name, message: 'x' }) });
const environments = (names: string[]) => ({ status: 200, headers: json, body: JSON.stringify({ version: 1, environments: names.map((name) => ({ name, enabled: true })) }) });
const at = (method: string, path: string, credential: ModelCredential = 'full') => ({ method, path, credential });
const rules = (verdicts: { rule: string }[][]) => verdicts.map((v) => v.map((x) => x.rule));

describe('the model of the contract', () => {
  it('allows both a success and 404 for a token nobody declared, only 404 once it is deleted', () => {
    const state = createRunState({ contract });
    expect(allowedAnswers(at('DELETE', TOKEN), state).statuses).toEqual([200, 404]);
    state.observe({ request: at('DELETE', TOKEN), response: { status: 200, headers: {}, body: '' } });
    expect(allowedAnswers(at('DELETE', TOKEN), state).statuses).toEqual([404]);
  });

  it("judges a POST whose override header names an operation by that operation's permission: its refusal or the line's, never a success the key lacks", () => {
    const OIDC = '/api/admin/auth/oidc/settings';
    const state = createRunState({ contract, forbidden: ['getOidcSettings', 'deleteServiceAccountToken'] });
    state.declare(at('DELETE', TOKEN), 'exists');
    const overridden = (method: string, path: string, credential: ModelCredential) => ({ ...at('POST', path, credential), methodOverride: method });
    const settings = { status: 200, headers: json, body: JSON.stringify({ enabled: true, discoverUrl: 'https://example.com/.well-known/openid-configuration', clientId: 'c', secret: 's' }) };
    // A server that ignores the header refuses the POST in its router's words; one that honours it refuses the key as the named operation does.
    expect(rules(judgeRun([{ request: overridden('GET', OIDC, 'restricted'), response: { status: 405, headers: { allow: 'GET' }, body: 'Method Not Allowed' } }, { request: overridden('GET', OIDC, 'restricted'), response: error(403, 'NoAccessError', 'e1') }], state))).toEqual([[], []]);
    expect(rules(judgeRun([{ request: overridden('GET', OIDC, 'restricted'), response: settings }], state))).toEqual([['permission-required']]);
    // Honoured with a key that may: the named operation's answer, judged by its schema.
    expect(rules(judgeRun([{ request: overridden('GET', OIDC, 'full'), response: settings }], state))).toEqual([[]]);
    expect(rules(judgeRun([{ request: overridden('GET', OIDC, 'full'), response: { status: 200, headers: json, body: '{"enabled":"yes"}' } }], state))[0]).toContain('body-schema');
    // A delete that happened through the header is judged, and counts: the token is gone afterwards.
    expect(rules(judgeRun([{ request: overridden('DELETE', TOKEN, 'none'), response: { status: 200, headers: {}, body: '' } }], state))).toEqual([['auth-required']]);
    expect(allowedAnswers(at('DELETE', TOKEN), state).statuses).toEqual([404]);
  });

  it('gives two keys that may both call a read the same members: the key decides 401 or 403, never the content (decision key-decides-access-only)', () => {
    const state = createRunState({ contract });
    expect(rules(judgeRun([{ request: at('GET', ENV, 'full'), response: environments(['development', 'production']) }, { request: at('GET', ENV, 'restricted'), response: environments(['development', 'production']) }], state))).toEqual([[], []]);
    const other = createRunState({ contract });
    const verdicts = judgeRun([{ request: at('GET', ENV, 'full'), response: environments(['development', 'production']) }, { request: at('GET', ENV, 'restricted'), response: environments(['development']) }], other);
    expect(rules(verdicts)).toEqual([[], ['answer-stable']]);
    expect(verdicts[1]![0]!.message).toContain('another key that may call it');
    // Only successes compare: a key refused is refused, whatever the other got.
    expect(rules(judgeRun([{ request: at('GET', ENV, 'restricted'), response: error(403, 'NoAccessError', 'k1') }], createRunState({ contract, forbidden: ['getProjectEnvironments'] })))).toEqual([[]]);
  });

  it('takes a JSON body for UTF-8 only: a charset other than utf-8, or bytes that are not UTF-8, is a media-type defect (RFC 8259 §8.1)', () => {
    const state = createRunState({ contract });
    const answer = (contentType: string, notUtf8?: true) => ({ ...error(401, 'AuthenticationRequired', `c-${contentType}-${notUtf8}`), headers: { 'content-type': contentType }, ...(notUtf8 ? { notUtf8 } : {}) });
    const judged = (response: ReturnType<typeof answer>) => judgeExchange({ request: at('GET', ENV, 'none'), response }, state).map((v) => v.rule);
    expect(judged(answer('application/json; charset=utf-8'))).toEqual([]);
    expect(judged(answer('application/json; Charset="UTF-8"'))).toEqual([]);
    expect(judged(answer('application/json; charset=iso-8859-1'))).toEqual(['media-type']);
    expect(judged(answer('application/json; charset=us-ascii'))).toEqual(['media-type']);
    expect(judged(answer('application/json', true))).toEqual(['media-type']);
  });

  it('decides auth before the resource: 401 without a key, 403 for the restricted key on a forbidden operation', () => {
    const state = createRunState({ contract, forbidden: ['deleteServiceAccountToken'] });
    expect(allowedAnswers(at('DELETE', TOKEN, 'none'), state).statuses).toEqual([401]);
    expect(allowedAnswers(at('DELETE', TOKEN, 'restricted'), state).statuses).toEqual([403]);
    expect(allowedAnswers(at('GET', ENV, 'restricted'), state).statuses).toEqual([200, 403, 404]);
  });

  it('allows the OIDC read its unconditioned 400 and tolerates router refusals only on malformed ids', () => {
    const state = createRunState({ contract });
    expect(allowedAnswers(at('GET', '/api/admin/auth/oidc/settings'), state).statuses).toEqual([200, 400]);
    const [odd, plain] = judgeRun([{ request: at('GET', '/api/admin/environments/project/odd%ZZ'), response: { status: 414, headers: {}, body: '' } }, { request: at('GET', '/api/admin/environments/project/plain'), response: { status: 414, headers: {}, body: '' } }], state);
    expect(rules([odd!, plain!])).toEqual([[], ['status-documented']]);
  });

  it('judges a deletion that does not last and an answer that changes', () => {
    const state = createRunState({ contract });
    state.declare(at('DELETE', TOKEN), 'exists');
    const run: ModelExchange[] = [
      { request: at('GET', ENV), response: environments(['a', 'b']) },
      { request: at('DELETE', TOKEN), response: { status: 200, headers: {}, body: '' } },
      { request: at('GET', ENV), response: environments(['b', 'a']) },
      { request: at('DELETE', TOKEN), response: { status: 200, headers: {}, body: '' } },
      { request: at('GET', ENV), response: environments(['a']) },
    ];
    expect(rules(judgeRun(run, state))).toEqual([[], [], [], ['resource-gone'], ['answer-stable']]);
  });

  it('finds reused error ids and list items with the same key, and ignores per-instance fields when comparing', () => {
    const state = createRunState({ contract });
    const run: ModelExchange[] = [
      { request: at('GET', '/api/admin/environments/project/nope'), response: error(404, 'NotFoundError', 'e-1') },
      { request: at('GET', '/api/admin/environments/project/nope'), response: error(404, 'NotFoundError', 'e-2') },
      { request: at('DELETE', '/api/admin/service-account/9/token/9', 'none'), response: error(401, 'AuthenticationRequired', 'e-1') },
      { request: at('GET', ENV), response: environments(['a', 'a']) },
    ];
    expect(rules(judgeRun(run, state))).toEqual([[], [], ['error-id-unique'], ['list-items-unique']]);
  });

  it('compares repeated answers on the properties the spec lists, never on ones it does not (a request id, a timestamp)', () => {
    const state = createRunState({ contract });
    const nope = '/api/admin/environments/project/nope';
    const withExtras = (id: string, extra: Record<string, unknown>, name = 'NotFoundError') => ({ status: 404, headers: json, body: JSON.stringify({ id, name, message: 'x', ...extra }) });
    const listed = (extra: Record<string, unknown>) => ({ ...environments(['a']), body: JSON.stringify({ version: 1, environments: [{ name: 'a', enabled: true, ...extra }], ...extra }) });
    const run: ModelExchange[] = [
      { request: at('GET', nope), response: withExtras('e-1', { requestId: 'r-1', timestamp: '2026-01-01T00:00:00Z', statusCode: 404 }) },
      { request: at('GET', nope), response: withExtras('e-2', { requestId: 'r-2', timestamp: '2026-01-01T00:00:01Z' }) },
      { request: at('GET', ENV), response: listed({ servedBy: 'node-1' }) },
      { request: at('GET', ENV), response: listed({ servedBy: 'node-2' }) },
      // A property the schema lists still counts: its change, or its disappearing, is a finding.
      { request: at('GET', nope), response: withExtras('e-3', {}, 'NotFound') },
      { request: at('GET', ENV), response: { ...environments(['a']), body: JSON.stringify({ version: 1, environments: [{ name: 'a' }] }) } },
    ];
    expect(rules(judgeRun(run, state))).toEqual([[], [], [], [], ['error-kind', 'answer-stable'], ['answer-stable']]);
  });

  it('allows exactly one success among deletes of one token sent at once', () => {
    const state = createRunState({ contract });
    state.declare(at('DELETE', TOKEN), 'exists');
    const ok = { status: 200, headers: {}, body: '' };
    const gone = error(404, 'NotFoundError', 'x');
    const batch = (statuses: (typeof ok)[]) => statuses.map((response, i) => ({ request: at('DELETE', TOKEN), response: { ...response, body: response.body.replace('"x"', `"x${i}"`) }, batch: 1 }));
    expect(rules(judgeRun(batch([gone, ok, gone]), state))).toEqual([[], [], []]);
    const again = createRunState({ contract });
    again.declare(at('DELETE', TOKEN), 'exists');
    expect(rules(judgeRun(batch([ok, ok, gone]), again))).toEqual([[], ['resource-gone'], []]);
  });

  it('holds a key to one permission per operation on every resource, and version to one value in every answer', () => {
    const state = createRunState({ contract });
    const other = '/api/admin/environments/project/mobile-app';
    const run: ModelExchange[] = [
      { request: at('GET', ENV, 'restricted'), response: environments(['a']) },
      { request: at('GET', other, 'restricted'), response: error(403, 'NoAccessError', 'e-9') },
      { request: at('GET', other), response: { ...environments(['b']), body: JSON.stringify({ version: 2, environments: [{ name: 'b' }] }) } },
    ];
    expect(rules(judgeRun(run, state))).toEqual([[], ['permission-consistent'], ['answer-stable']]);
  });

  it('holds a key to its first access verdict on a resource that does not exist too, in either order, naming the decision and its way out', () => {
    const missing = '/api/admin/environments/project/no-such-project';
    const granted = createRunState({ contract });
    granted.declare(at('GET', missing), 'missing');
    const first = judgeRun([{ request: at('GET', ENV, 'restricted'), response: environments(['a']), seq: 4 }, { request: at('GET', missing, 'restricted'), response: error(403, 'NoAccessError', 'e-1'), seq: 5 }], granted);
    expect(rules(first)).toEqual([[], ['permission-consistent']]);
    expect(first[1]![0]).toMatchObject({ contradicts: 4, message: expect.stringContaining('request #4 let this key past auth') });
    expect(first[1]![0]!.message).toMatch(/permissions-per-operation.*per-resource roles need keys that hold it everywhere or nowhere/);
    // Refused first on the missing project, then let through on a given one: the later answer is the one judged.
    const denied = createRunState({ contract });
    denied.declare(at('GET', missing), 'missing');
    const second = judgeRun([{ request: at('GET', missing, 'restricted'), response: error(403, 'NoAccessError', 'e-2'), seq: 1 }, { request: at('GET', ENV, 'restricted'), response: environments(['a']), seq: 2 }], denied);
    expect(rules(second)).toEqual([[], ['permission-consistent']]);
    expect(second[1]![0]!.message).toContain('request #1 refused this key with 403');
    // A 404 there is past auth: consistent with the 200.
    const found = createRunState({ contract });
    found.declare(at('GET', missing), 'missing');
    expect(rules(judgeRun([{ request: at('GET', ENV, 'restricted'), response: environments(['a']) }, { request: at('GET', missing, 'restricted'), response: error(404, 'NotFoundError', 'e-3') }], found))).toEqual([[], []]);
  });

  it('allows an id spelled with needless percent-encoding to be the same resource or none', () => {
    const state = createRunState({ contract });
    state.declare(at('GET', ENV), 'exists');
    expect(allowedAnswers(at('GET', '/api/admin/environments/project/%64efault'), state).statuses).toEqual([200, 404]);
    expect(allowedAnswers(at('GET', ENV), state).statuses).toEqual([200]);
  });

  it('reads the credential of traffic from the header', () => {
    expect([undefined, 'Bearer k', 'k', 'r', 'other'].map((v) => credentialOf(v, { full: 'k', restricted: 'r' }))).toEqual(['none', 'full', 'full', 'restricted', 'unknown']);
  });
  it('remembers the ids of an answer observed as one alike the last (observeAlike): a later answer that reuses one is caught, and the version stays', () => {
    const state = createRunState({ contract });
    const OIDC = '/api/admin/auth/oidc/settings';
    const first = { request: at('GET', OIDC, 'none'), response: error(401, 'AuthenticationRequired', 'e1'), seq: 1 };
    expect(judgeExchange(first, state)).toEqual([]);
    state.observe(first);
    const version = state.version();
    const alike = { request: at('GET', OIDC, 'none'), response: error(401, 'AuthenticationRequired', 'e2'), seq: 2 };
    expect(judgeExchange(alike, state, { perInstanceOnly: true })).toEqual([]);
    state.observeAlike(alike);
    expect(state.version()).toBe(version);
    expect(state.observed()).toBe(2);
    expect(state.errorIdSeenAt('e2')).toBe(2);
    const reused = { request: at('GET', OIDC, 'none'), response: error(401, 'AuthenticationRequired', 'e2'), seq: 3 };
    expect(judgeExchange(reused, state, { perInstanceOnly: true }).map((v) => v.rule)).toEqual(['error-id-unique']);
  });
});
