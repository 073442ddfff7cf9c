import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, VIEWER_KEY, mockClient, paths } from '../../../test/http.ts';
import { DEFAULT_MAX_RULES, MAX_DELAY_MS, MAX_RULE_COUNT, type JournalEntry, type StartMockOptions } from '../index.ts';
import { controlContract } from './control.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let client: Awaited<ReturnType<typeof mockClient>> | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});
const start = async (options: StartMockOptions = {}) => (client = await mockClient(options));
const prefer = (value: string, extra: Record<string, string> = {}) => ({ prefer: value, ...extra });
const tokensOf = (account: string) => client!.mock.store.snapshot().serviceAccounts.find((a) => a.id === account)!.tokens.map((t) => t.id);
const addRule = (rule: object, headers: Record<string, string> = {}) => client!.call('POST', '/__mock/rules', undefined, { 'content-type': 'application/json', ...headers }, JSON.stringify(rule));

describe('Prefer: code=…, example=… (per request)', () => {
  it('answers a documented error status with the spec example body and a fresh id', async () => {
    const { call } = await start();
    const first = await call('GET', paths.environments('default'), ADMIN_KEY, prefer('code=404'));
    const second = await call('GET', paths.environments('default'), ADMIN_KEY, prefer('code=404'));
    expect(first.status).toBe(404);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(first.json).toEqual({ id: expect.stringMatching(UUID), name: 'NotFoundError', message: 'Could not find the requested resource.' });
    expect(second.json.id).not.toBe(first.json.id);
  });

  it("provokes the OIDC read's 400 ValidationError", async () => {
    const { call } = await start();
    const answer = await call('GET', paths.oidc(), ADMIN_KEY, prefer('code=400'));
    expect([answer.status, answer.json.name]).toEqual([400, 'ValidationError']);
    const [entry] = (await call('GET', '/__mock/journal')).json.entries as JournalEntry[];
    expect(entry).toMatchObject({ status: 400, operationId: 'getOidcSettings', responseMatchesSpec: true });
  });

  it('refuses a status the operation does not document with 400 naming the ones it does', async () => {
    const { call } = await start();
    const answer = await call('GET', paths.environments('default'), ADMIN_KEY, prefer('code=500'));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ name: 'MockPreferError', message: 'getProjectEnvironments does not document 500; it documents 200, 401, 403, 404.' });
  });

  it('answers the named example of the spec, and names the examples there are for an unknown one', async () => {
    const { call } = await start();
    const disabled = await call('GET', paths.oidc(), ADMIN_KEY, prefer('example=oidcDisabled'));
    expect([disabled.status, disabled.json]).toEqual([200, { enabled: false }]);
    const unknown = await call('GET', paths.oidc(), ADMIN_KEY, prefer('example=nope'));
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe('getOidcSettings has no example named "nope"; it has oidcEnabled (200), oidcDisabled (200).');
  });

  it('never changes the state: a forced 200 deletes nothing, a forced 404 keeps the token', async () => {
    const { call } = await start();
    const forced = await call('DELETE', paths.token('1', '1'), ADMIN_KEY, prefer('code=200'));
    expect([forced.status, forced.text]).toEqual([200, '']);
    expect((await call('DELETE', paths.token('1', '2'), ADMIN_KEY, prefer('code=404'))).status).toBe(404);
    expect(tokensOf('1')).toEqual(['1', '2', '3']);
  });

  it('lets no request past auth: without a key a forced 200 is still a 401', async () => {
    const { call } = await start();
    expect((await call('GET', paths.oidc(), undefined, prefer('code=200'))).status).toBe(401);
    expect((await call('DELETE', paths.token('1', '1'), VIEWER_KEY, prefer('code=200'))).status).toBe(403);
  });

  it('ignores the preferences registered with IANA that are not its own (RFC 7240 §5), and forces nothing outside the spec', async () => {
    const { call } = await start();
    expect((await call('GET', paths.oidc(), ADMIN_KEY, prefer('return=minimal, respond-async, wait=5, handling=lenient'))).status).toBe(200);
    expect((await call('GET', '/api/admin/nothing', ADMIN_KEY, prefer('code=200'))).status).toBe(404);
  });

  it.each([
    ['cod=400', 'Prefer cod=400: not a preference the mock knows (did you mean code=400?); it knows code=STATUS, example=NAME and delay=MS, and ignores return, respond-async, wait, handling, depth-noroot and safe (RFC 7240).'],
    ['dealy=50', 'Prefer dealy=50: not a preference the mock knows (did you mean delay=50?); it knows code=STATUS, example=NAME and delay=MS, and ignores return, respond-async, wait, handling, depth-noroot and safe (RFC 7240).'],
  ])('refuses an unknown preference %s like a bad value: a typo must not pass as the real answer', async (value, message) => {
    const { call } = await start();
    const answer = await call('GET', paths.oidc(), ADMIN_KEY, prefer(value));
    expect([answer.status, answer.json.name, answer.json.message]).toEqual([400, 'MockPreferError', message]);
  });

  it('says in the journal entry why a Prefer was refused, and what a forced answer was forced by', async () => {
    const { call } = await start();
    await call('GET', paths.oidc(), ADMIN_KEY, prefer('code=abc'));
    await call('GET', paths.oidc(), ADMIN_KEY, prefer('code=400'));
    await call('GET', paths.oidc(), ADMIN_KEY);
    const entries = (await call('GET', '/__mock/journal')).json.entries as JournalEntry[];
    expect(entries.map((e) => [e.status, e.note])).toEqual([
      [400, 'Prefer refused: Prefer code=abc: expected an HTTP status from 100 to 599.'],
      [400, 'answered as Prefer: code=400 asked; the operation did not run'],
      [200, undefined],
    ]);
  });

  it.each([
    ['code=abc', 'Prefer code=abc: expected an HTTP status from 100 to 599.'],
    [`delay=${MAX_DELAY_MS + 1}`, `Prefer delay=${MAX_DELAY_MS + 1}: expected milliseconds from 0 to ${MAX_DELAY_MS}.`],
    ['delay=-5', `Prefer delay=-5: expected milliseconds from 0 to ${MAX_DELAY_MS}.`],
  ])('refuses Prefer %s with 400 saying what was expected', async (value, message) => {
    const { call } = await start();
    const answer = await call('GET', paths.oidc(), ADMIN_KEY, prefer(value));
    expect([answer.status, answer.json.message]).toEqual([400, message]);
  });
});

describe('Prefer: delay=…', () => {
  it('waits before answering, alone or with a forced code', async () => {
    const { call } = await start();
    let started = performance.now();
    expect((await call('GET', paths.oidc(), ADMIN_KEY, prefer('delay=150'))).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    started = performance.now();
    expect((await call('GET', paths.oidc(), ADMIN_KEY, prefer('code=403, delay=100'))).status).toBe(403);
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('stops waiting when the client leaves, and the delayed delete never runs', async () => {
    const { mock, call } = await start();
    const leaving = new AbortController();
    const request = fetch(`${mock.url}${paths.token('1', '1')}`, { method: 'DELETE', headers: { authorization: ADMIN_KEY, prefer: `delay=${MAX_DELAY_MS}` }, signal: leaving.signal });
    setTimeout(() => leaving.abort(), 50);
    await expect(request).rejects.toThrow();
    // The journal records the abandoned request as soon as the wait ends: long before the delay.
    let entries: JournalEntry[] = [];
    for (let i = 0; i < 100 && entries.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      entries = (await call('GET', '/__mock/journal')).json.entries;
    }
    expect(entries.map((e) => [e.operationId, e.status])).toEqual([['deleteServiceAccountToken', 499]]);
    expect(entries[0]!.durationMs).toBeLessThan(MAX_DELAY_MS);
    expect(tokensOf('1')).toEqual(['1', '2', '3']);
  });
});

describe('sticky rules (control API)', () => {
  it('"the next 2 deletes answer 403": two forced answers, then the real operation', async () => {
    const { call } = await start();
    const added = await addRule({ operationId: 'deleteServiceAccountToken', code: 403, count: 2 });
    expect(added.status).toBe(201);
    expect(controlContract.operation('addRule').responses.get('201')!.validate(added.json)).toEqual([]);
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY)).json.name).toBe('NoAccessError');
    expect((await call('GET', '/__mock/rules')).json.rules).toEqual([{ operationId: 'deleteServiceAccountToken', code: 403, count: 1 }]);
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY)).status).toBe(403);
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY)).status).toBe(200);
    expect((await call('GET', '/__mock/rules')).json.rules).toEqual([]);
  });

  it('"every environments read waits": applies to one session, and to no other operation', async () => {
    const { call } = await start();
    // 600 ms: far above what an undelayed answer takes on a loaded CI machine, so the two sides cannot meet.
    await addRule({ operationId: 'getProjectEnvironments', delay: 600 }, { 'x-mock-session': 'slow' });
    const timed = async (path: string, headers: Record<string, string>) => {
      const started = performance.now();
      expect((await call('GET', path, ADMIN_KEY, headers)).status).toBe(200);
      return performance.now() - started;
    };
    expect(await timed(paths.environments('default'), { 'x-mock-session': 'slow' })).toBeGreaterThanOrEqual(590);
    expect(await timed(paths.environments('default'), { 'x-mock-session': 'slow' })).toBeGreaterThanOrEqual(590);
    expect(await timed(paths.oidc(), { 'x-mock-session': 'slow' })).toBeLessThan(590);
    expect(await timed(paths.environments('default'), {})).toBeLessThan(590);
  });

  it('is not used up by a request refused at auth, and a Prefer header wins over it', async () => {
    const { call } = await start();
    await addRule({ operationId: 'getOidcSettings', code: 400, count: 1 });
    expect((await call('GET', paths.oidc())).status).toBe(401);
    expect((await call('GET', paths.oidc(), ADMIN_KEY, prefer('example=oidcDisabled'))).json).toEqual({ enabled: false });
    expect((await call('GET', paths.oidc(), ADMIN_KEY)).status).toBe(400);
    expect((await call('GET', paths.oidc(), ADMIN_KEY)).status).toBe(200);
  });

  it('are dropped by a reset and by DELETE /__mock/rules', async () => {
    const { call } = await start();
    await addRule({ operationId: 'getOidcSettings', code: 403 });
    await call('POST', '/__mock/reset');
    expect((await call('GET', paths.oidc(), ADMIN_KEY)).status).toBe(200);
    await addRule({ operationId: 'getOidcSettings', code: 403 });
    expect((await call('DELETE', '/__mock/rules')).status).toBe(204);
    expect((await call('GET', paths.oidc(), ADMIN_KEY)).status).toBe(200);
  });

  it.each([
    [{ operationId: 'deleteServiceAccountToken', code: 500 }, '/code', '500 (deleteServiceAccountToken does not document 500; it documents 200, 401, 403, 404)'],
    [{ operationId: 'deleteServiceAccountToken', code: 418 }, '/code', '418 (deleteServiceAccountToken does not document 418; it documents 200, 401, 403, 404)'],
    [{ operationId: 'getOidcSettings', example: 'nope' }, '/example', '"nope" (getOidcSettings has no example named "nope"'],
    [{ operationId: 'getOidcSettings', code: 400, count: 1e308 }, '/count', '1e+308'],
    [{ operationId: 'getOidcSettings', code: 400, count: 2 ** 53 }, '/count', '9007199254740992'],
    [{ operationId: 'listFlags', code: 404 }, '/operationId', '"listFlags"'],
    [{ operationId: 'getOidcSettings', delay: MAX_DELAY_MS + 1 }, '/delay', `${MAX_DELAY_MS + 1}`],
    [{ operationId: 'getOidcSettings', code: 400, count: 0 }, '/count', '0'],
    [{ operationId: 'getOidcSettings' }, '', 'none'],
    [{ operationId: 'getOidcSettings', code: 400, when: 'always' }, '', '{"operationId"'],
  ])('refuses the rule %j with 422 naming %s', async (rule, pointer, got) => {
    const { call } = await start();
    const answer = await addRule(rule);
    expect(answer.status).toBe(422);
    expect(controlContract.operation('addRule').responses.get('422')!.validate(answer.json)).toEqual([]);
    expect(answer.json.pointer).toBe(pointer);
    expect(answer.json.message).toContain(`got ${got}`);
    expect((await call('GET', '/__mock/rules')).json.rules).toEqual([]);
  });

  it('takes a count up to MAX_RULE_COUNT, and holds --max-rules rules per session: one more is 409 naming the flag', async () => {
    const { call } = await start({ maxRules: 3 });
    expect((await addRule({ operationId: 'getOidcSettings', code: 400, count: MAX_RULE_COUNT })).status).toBe(201);
    expect((await addRule({ operationId: 'getOidcSettings', code: 400, count: MAX_RULE_COUNT + 1 })).json.expected).toContain(`<= ${MAX_RULE_COUNT}`);
    for (let i = 0; i < 2; i++) expect((await addRule({ operationId: 'getOidcSettings', delay: 1 })).status).toBe(201);
    const full = await addRule({ operationId: 'getOidcSettings', delay: 1 });
    expect(controlContract.operation('addRule').responses.get('409')!.validate(full.json)).toEqual([]);
    expect([full.status, full.json.name]).toEqual([409, 'MockRulesFull']);
    expect(full.json.message).toContain('--max-rules');
    // Another session has its own room; the full one is listed with its bound.
    expect((await addRule({ operationId: 'getOidcSettings', delay: 1 }, { 'x-mock-session': 'other' })).status).toBe(201);
    const listed = (await call('GET', '/__mock/rules')).json;
    expect([listed.rules.length, listed.maxRules]).toEqual([3, 3]);
    await call('DELETE', '/__mock/rules');
    expect((await addRule({ operationId: 'getOidcSettings', delay: 1 })).status).toBe(201);
  });

  it('holds 100 rules per session by default', async () => {
    const { call } = await start();
    const answers = await Promise.all(Array.from({ length: 101 }, () => addRule({ operationId: 'getOidcSettings', delay: 1 })));
    expect(answers.filter((a) => a.status === 201).length).toBe(DEFAULT_MAX_RULES);
    expect(answers.filter((a) => a.status === 409).length).toBe(1);
    expect((await call('GET', '/__mock/rules')).json.rules.length).toBe(DEFAULT_MAX_RULES);
  });
});
