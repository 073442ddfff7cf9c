import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, VIEWER_KEY, runCheck, targetArgs } from './run-check.ts';
import { breakResponses, editJson, freshMock, mockWithKeys, operationOf, serveRaw, toMockRequest, originForm } from './serve-target.ts';
import { B64, ENCODINGS, forbiddenForms, leaks, windows } from './secret-encodings.ts';
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
    expect(run.report!.findings.some((f) => f.response?.excerpt.includes('"message":"key <redacted> (<redacted>) refused; secret <redacted>"'))).toBe(true);
  });
});

/**
 * Issue 13, item 2: redaction as a principle. Keys with punctuation that HTML names (`.`, `+`,
 * `/`, `_`), so that every form the issue lists can be planted, and the OIDC secret the run learns.
 * Each error the target sends echoes one secret in one form (cycling through all of them), and
 * splits another across two adjacent values; the Content-Type echoes the key percent-encoded.
 */
const FULL = 'Adm1n.Key+2024/x_Z';
const RESTRICTED = 'view.er_Key+77/q';
const OIDC_SECRET = 'oidc/Secret.4_2+zz';

describe('a target that echoes every secret in every encoding, reversed and split (issue 13, item 2)', () => {
  it('no report holds any 8 consecutive characters of a secret in any of them', async () => {
    const secrets = [FULL, RESTRICTED, OIDC_SECRET];
    const plants = secrets.flatMap((secret) => Object.keys(ENCODINGS).map((encoding) => ({ secret, encoding })));
    let n = 0;
    const mock = freshMock(harness.contract);
    const translate: Record<string, string> = { [FULL]: ADMIN_KEY, [RESTRICTED]: VIEWER_KEY };
    harness.server = await serveRaw((req, _, answer) => {
      const key = req.headers.authorization;
      const mapped = key === undefined ? undefined : (translate[key] ?? 'unknown');
      const response = mock.handle({ ...toMockRequest(req), headers: { ...req.headers, authorization: mapped } });
      if (operationOf(harness.contract, toMockRequest(req)) === 'getOidcSettings' && response.status === 200) {
        // The OIDC settings with this test's secret, and one defect so that the body is quoted.
        return answer(editJson(response, (body) => ({ ...body, secret: OIDC_SECRET, defaultRootRole: 'Owner' })));
      }
      if (response.status < 400) return answer(response);
      const plant = plants[n++ % plants.length]!;
      const split = secrets[n % secrets.length]!;
      const cut = Math.floor(split.length / 2);
      const body = { id: 'e-1', name: 'Oops', encoding: plant.encoding, message: `refused: ${ENCODINGS[plant.encoding]!(plant.secret)}`, a: split.slice(0, cut), b: split.slice(cut) };
      answer({ status: response.status, headers: { 'content-type': `application/json; k=${ENCODINGS.percent!(FULL)}` }, body: JSON.stringify(body) });
    });
    const run = await runCheck(targetArgs(harness.server.url), { FLAG_ADMIN_API_KEY: FULL, FLAG_ADMIN_RESTRICTED_KEY: RESTRICTED });
    expect(run.code).toBe(1);
    // Not vacuous: every planted form was sent, and the reports quote a body with each of them.
    expect(n).toBeGreaterThanOrEqual(plants.length);
    const quoted = new Set(run.report!.findings.flatMap((f) => /"encoding":"([^"]+)"/.exec(f.response?.excerpt ?? '')?.[1] ?? []));
    expect([...quoted].sort()).toEqual(Object.keys(ENCODINGS).map((e) => JSON.stringify(e).slice(1, -1)).sort());
    expect(run.report!.findings.some((f) => f.response?.excerpt.includes('"secret":"<redacted>"'))).toBe(true);

    const reports = { console: run.stdout + run.stderr, json: run.json, junit: run.junit };
    for (const [name, text] of Object.entries(reports)) {
      const folded = text.toLowerCase();
      // The JSON report escapes a backslash, JUnit writes & as &amp;: read each as a user would.
      const readable = [folded, folded.replaceAll('\\\\', '\\'), folded.replaceAll('&amp;', '&')];
      for (const { secret, encoding } of plants) {
        for (const form of forbiddenForms(secret, encoding)) {
          const needle = B64.has(encoding) ? form : form.toLowerCase();
          const haystacks = B64.has(encoding) ? [text] : readable;
          expect(haystacks.some((h) => h.includes(needle)), `${name} report holds ${encoding} of ${secret}: ${needle}`).toBe(false);
        }
      }
      for (const secret of secrets) for (const w of windows(secret)) expect(readable.some((h) => h.replaceAll(/"\s*,\s*"/g, '').includes(w.toLowerCase())), `${name} report rebuilds ${w} from two values`).toBe(false);
    }
  });
});

/** Issue 13, item 3: a target cannot steer redaction with a one-character secret. */
describe('a target whose OIDC secret is "x"', () => {
  it('gets "x" redacted where a whole value is it, never inside words, media types or names', async () => {
    harness.server = await breakResponses(harness.contract, (req, res) => {
      const operation = operationOf(harness.contract, req);
      if (operation === 'getOidcSettings' && res.status === 200) return editJson(res, (body) => ({ ...body, secret: 'x', defaultRootRole: 'Owner' }));
      if (res.status === 404) return { status: 404, headers: { 'content-type': 'text/html' }, body: '<p>no such thing</p>' };
      if (res.status === 401) return { ...res, body: JSON.stringify({ id: 'e-1', name: 'Oops', message: 'x', hint: 'X', extra: 'xylophone' }) };
      return res;
    });
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(1);
    const everything = run.stdout + run.json + run.junit;
    expect(everything).not.toMatch(/te<redacted>t|<redacted>ylophone|e<redacted>pected/);
    const excerpts = run.report!.findings.map((f) => `${f.response?.contentType} ${f.response?.excerpt}`);
    expect(excerpts).toContainEqual(expect.stringContaining('text/html <p>no such thing</p>'));
    expect(excerpts).toContainEqual(expect.stringContaining('"message":"<redacted>","hint":"<redacted>","extra":"xylophone"'));
    expect(excerpts).toContainEqual(expect.stringContaining('"secret":"<redacted>"'));
    expect(run.stdout).toContain('expected:');
  });
});

/** Issue 19: Unleash keys are `<project>:<environment>.<secret>`; the project and environment they name are data, not secrets. */
describe('keys shaped as Unleash makes them (default:development.<secret>)', () => {
  it('redacts the secret part wherever it shows, and leaves the project default and the environment development readable', async () => {
    const keys = { full: 'default:development.unleash-admin-4e5f6a7b', restricted: 'default:development.unleash-viewer-8c9d0e1f' };
    const mock = await mockWithKeys(harness.contract, keys, { full: ADMIN_KEY, restricted: VIEWER_KEY });
    harness.server = await serveRaw(async (req, _, answer) => {
      // One defect that quotes the environments list: its version is a string; errors echo the key they got.
      // fetch() refuses the methods the Fetch standard forbids (TRACE, CONNECT): a refusal, as a proxy built on it answers them.
      if (req.method === 'TRACE' || req.method === 'CONNECT') return answer({ status: 501, headers: { 'content-type': 'text/plain' }, body: 'Not Implemented' });
      // Nor can it forward a target that names no path (OPTIONS *, RFC 9112 §3.2.4): a refusal too.
      if (req.url === '*') return answer({ status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' });
      const response = await fetch(mock.url + originForm(req.url!), { method: req.method, headers: req.headers.authorization ? { authorization: req.headers.authorization } : {} });
      const body = await response.text();
      const edited = response.status === 200 && body.includes('"environments"') ? body.replace(/"version":\d+/, '"version":"one"') : response.status >= 400 ? body.replace(/"message":"/, `"message":"key ${req.headers.authorization ?? ''}: `) : body;
      answer({ status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' }, body: edited });
    });
    try {
      const run = await runCheck(targetArgs(harness.server.url), { FLAG_ADMIN_API_KEY: keys.full, FLAG_ADMIN_RESTRICTED_KEY: keys.restricted });
      const everything = run.stdout + run.stderr + run.json + run.junit;
      for (const key of Object.values(keys)) expect(leaks(everything, [key])).toEqual([]);
      const excerpts = run.report!.findings.map((f) => f.response?.excerpt ?? '').join('\n');
      expect(excerpts).toContain('"name":"development"');
      expect(run.report!.findings.map((f) => f.got + f.message).join('\n')).not.toMatch(/<redacted>"?,"?(type|enabled)/);
      expect(run.stdout).toContain('/api/admin/environments/project/default');
      // A group of more findings than it shows names the last one too (issue 19: first and last example), or says it is
      // a request already shown (the reads repeated at start, middle and end).
      expect(run.stdout).toMatch(/more alike \(every one in the JSON report\), the last(:\n {3}- GET http:\/\/127\.0\.0\.1:\d+\/api\/admin\/environments\/project\/[\w-]+ -> 200\n {5}reproduce: curl | the same request as (the )?one above)/);
    } finally {
      await mock.close();
    }
  });
});
