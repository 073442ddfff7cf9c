import { describe, expect, it } from 'vitest';
import { breakResponses } from './serve-target.ts';
import { runCheck, targetArgs } from './run-check.ts';
import { useTargetServer } from './use-target-server.ts';

const harness = useTargetServer();
const VIEWER_KEY = 'mock-viewer-key';
const TOKEN_PATH = /\/service-account\/([^/?]+)\/token\/([^/?]+)/;

/**
 * A token the run finds gone at its delete: the report names every reading of that 404, and
 * among them the earlier requests to the token that must change nothing (a refused key, a method
 * the spec does not list there), likeliest first, so the one that deleted it is read first.
 */
describe('a token found gone at its delete', () => {
  it('names the refused request that deleted it (the restricted key answered 403 after deleting) beside "gone before the run"', async () => {
    harness.server = await breakResponses(harness.contract, (req, res, mock) => {
      const ids = TOKEN_PATH.exec(req.url);
      if (req.method === 'DELETE' && ids && req.headers.authorization === VIEWER_KEY) mock.store.deleteToken(decodeURIComponent(ids[1]!), decodeURIComponent(ids[2]!));
      return res;
    });
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(1);
    const gone = run.report!.findings.filter((f) => f.severity === 'error' && /earlier request/.test(f.message));
    expect(gone.length).toBeGreaterThan(0);
    for (const finding of gone) {
      expect(finding.message).toMatch(/DELETE with the restricted key \(#\d+, answered 403\)/);
      expect(finding.message).toContain('no longer existed when the run started');
      expect(finding.alsoPossible).toMatch(/DELETE with the restricted key/);
    }
  });

  it('puts first a request that got a success: a HEAD on the token path that deletes it', async () => {
    harness.server = await breakResponses(harness.contract, (req, res, mock) => {
      const ids = TOKEN_PATH.exec(req.url);
      if (req.method !== 'HEAD' || !ids) return res;
      mock.store.deleteToken(decodeURIComponent(ids[1]!), decodeURIComponent(ids[2]!));
      return { status: 200, headers: {}, body: undefined };
    });
    const run = await runCheck(targetArgs(harness.server.url));
    expect(run.code).toBe(1);
    const gone = run.report!.findings.filter((f) => f.severity === 'error' && /earlier requests? to this token/.test(f.message));
    expect(gone.length).toBeGreaterThan(0);
    expect(gone[0]!.message).toMatch(/deleted it \(HEAD [a-z ]+ \(#\d+, answered 200\)/);
  });
});
