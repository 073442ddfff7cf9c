import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, VIEWER_KEY, runCheck, targetArgs } from './run-check.ts';
import { breakResponses, mockWithKeys, operationOf } from './serve-target.ts';
import { useTargetServer } from './use-target-server.ts';

/** Issue 7, "judge the bytes, redact the rendering": keys never corrupt what is judged, and no echo of one reaches a report. */
const harness = useTargetServer();

const escapedU = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const percent = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
/** A secret in every form an echo may take. */
const forms = (secret: string) => [secret, escapedU(secret), percent(secret), Buffer.from(secret).toString('base64').replace(/=+$/, '')];

describe('keys that occur in what the server sends', () => {
  it.each([
    ['one character long (k, v)', { full: 'k', restricted: 'v' }],
    ['words the bodies hold (development, production)', { full: 'development', restricted: 'production' }],
    ['a piece of the OIDC discovery URL (well-known, https)', { full: 'well-known', restricted: 'https' }],
  ])('keys %s: a conformant server earns no finding', async (_, keys) => {
    harness.server = await mockWithKeys(harness.contract, keys, { full: ADMIN_KEY, restricted: VIEWER_KEY });
    const run = await runCheck([...targetArgs(harness.server.url), '--strict'], { FLAG_ADMIN_API_KEY: keys.full, FLAG_ADMIN_RESTRICTED_KEY: keys.restricted });
    expect(run.report!.findings).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe('a server that echoes keys and the OIDC secret, encoded', () => {
  it('shows no form of either in the console, JSON or JUnit report', async () => {
    // Every error names the wrong kind (so findings quote it) and echoes the key it got: \u-escaped
    // in the JSON text, percent-encoded, base64, and the OIDC secret base64 in a header and the message.
    // The secret is learned from the OIDC settings the server sends (read before any error is provoked).
    let secret = '(not read yet)';
    harness.server = await breakResponses(harness.contract, (req, res) => {
      const key = String(req.headers.authorization ?? '');
      const oidc = operationOf(harness.contract, req) === 'getOidcSettings';
      if (oidc && res.status === 200) secret = (JSON.parse(res.body!) as { secret: string }).secret;
      const OIDC_SECRET = secret;
      const headers = { ...res.headers, 'x-echo': `Basic ${Buffer.from(key).toString('base64')}`, 'x-secret': Buffer.from(OIDC_SECRET).toString('base64') };
      if (res.status < 400) return oidc ? { ...res, headers, body: res.body!.replace('"Editor"', '"Owner"') } : { ...res, headers };
      const message = `key ${escapedU(key)} (${percent(key)}, ${Buffer.from(key).toString('base64')}) refused; secret ${Buffer.from(OIDC_SECRET).toString('base64')}`;
      return { ...res, headers: { ...headers, 'content-type': `application/json; x=${percent(key)}` }, body: `{"id":"e-1","name":"Oops","message":"${message}"}` };
    });
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(1);
    expect(run.report!.findings.filter((f) => f.checkId === 'error-kind-conformance').length).toBeGreaterThan(3);
    const everything = run.stdout + run.stderr + run.json + run.junit;
    expect(secret).toMatch(/^mock-oidc/);
    for (const value of [ADMIN_KEY, VIEWER_KEY, secret]) for (const form of forms(value)) expect(everything).not.toContain(form);
    expect(run.report!.findings.some((f) => f.response?.excerpt.includes('"message":"key <redacted> (<redacted>, <redacted>) refused; secret <redacted>"'))).toBe(true);
  });
});
