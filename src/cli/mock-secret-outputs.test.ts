import { describe, expect, it } from 'vitest';
import { ENCODINGS, leaks } from '../../conformance/test/secret-encodings.ts';
import { useCliProcesses } from '../../test/cli-process.ts';

/**
 * Issue 19: the mock's journal and access log are outputs too. A client that puts the mock's
 * keys (fixtures/default.json) in the query, a cookie and the path, in every encoding the
 * suite's redactor reads, finds none of them in either; the ids around them stay readable.
 */
const KEYS = ['mock-admin-key', 'mock-viewer-key'];
const run = useCliProcesses({ PATH: process.env.PATH ?? '' });

describe('flag-admin mock: keys a client puts anywhere, in any encoding', () => {
  it('reach neither the access log nor the journal', async () => {
    const mock = run(['mock', '--port', '0']);
    const [, url] = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    let sent = 0;
    for (const key of KEYS) {
      for (const encode of Object.values(ENCODINGS)) {
        const echo = encodeURIComponent(encode(key));
        for (const path of [`/api/admin/environments/project/default?state=${echo}`, `/api/admin/environments/project/${echo}`, `/api/admin/auth/oidc/settings?token=${echo}#${echo}`]) {
          await (await fetch(url + path, { headers: { authorization: 'mock-admin-key' } })).arrayBuffer();
          sent++;
        }
      }
    }
    const journal = await (await fetch(`${url}/__mock/journal?limit=1000`)).text();
    for (let i = 0; i < 200 && (mock.out().match(/^GET /gm) ?? []).length < sent; i++) await new Promise((r) => setTimeout(r, 25));
    mock.child.kill('SIGTERM');
    await mock.exited;
    expect(JSON.parse(journal).entries.length).toBe(sent);
    expect(leaks(journal, KEYS)).toEqual([]);
    // The banner lists the fixtures' keys on purpose (they are the mock's to hand out); the access log is every line after it.
    const log = mock.out().split('\n').filter((line) => /^GET \/api\//.test(line)).join('\n');
    expect(log.split('\n')).toHaveLength(sent);
    expect(leaks(log + mock.err(), KEYS)).toEqual([]);
    expect(journal).toContain('"path":"/api/admin/environments/project/default?state=<redacted>"');
    expect(mock.out()).toContain('GET /api/admin/environments/project/default?state=<redacted> 200');
  });
});
