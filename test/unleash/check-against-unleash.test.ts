import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import { useCliProcesses } from '../cli-process.ts';
import { assertHealthy, describeAgainstUnleash } from './unleash-peer.ts';

const run = useCliProcesses({ PATH: process.env.PATH ?? '' });

interface ReportFinding {
  checkId: string;
  operationId: string;
  severity: string;
  response?: { status: number };
}

describeAgainstUnleash('flag-admin check against the real Unleash 8.2.0', (peer) => {
  let contract: Contract;
  let findings: ReportFinding[];
  let report: { verdict: string; summary: { requests: number } };
  let exitCode: number | null;

  const direct = async (method: string, path: string, key?: string) => {
    const response = await fetch(peer.url + path, { method, headers: key ? { authorization: key } : {} });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };

  beforeAll(async () => {
    await assertHealthy(peer);
    contract = await loadContract({ validate: false });
    const file = join(mkdtempSync(join(tmpdir(), 'flag-admin-unleash-check-')), 'check.json');
    // Open-source Unleash has no service accounts, so deleting tokens 1/1 and 1/2 deletes nothing.
    const check = run(['check', '--base-url', peer.url, '--api-key', peer.adminToken, '--restricted-key', peer.clientToken, '--restricted-key', peer.viewerPat, '--allow-delete', '--token', '1/1', '--token', '1/2', '--json', file]);
    exitCode = await check.exited;
    report = JSON.parse(readFileSync(file, 'utf8'));
    findings = (report as unknown as { findings: ReportFinding[] }).findings;
  });

  it('finds Unleash not conformant (exit 1) over the whole plan', () => {
    expect(exitCode).toBe(1);
    expect(report.verdict).toBe('not conformant');
    expect(report.summary.requests).toBeGreaterThan(150);
  });

  it('reports only differences Unleash really has, each confirmed here by a request of its own', async () => {
    const kinds = [...new Set(findings.map((f) => `${f.severity} ${f.checkId} ${f.operationId}`))].sort();
    expect(kinds).toEqual(
      [
        // OIDC settings and service accounts are Enterprise features: open source answers 404 there.
        'error status-code-documented getOidcSettings',
        'error documented-success getOidcSettings',
        'error restricted-key-forbidden getOidcSettings',
        'error restricted-key-forbidden deleteServiceAccountToken',
        'error delete-token-succeeds deleteServiceAccountToken',
        'error concurrent-delete-single-success deleteServiceAccountToken',
        // Its 401 names UnauthorizedError; its 403 to a client token is {"message"} alone.
        'error error-kind-conformance getProjectEnvironments',
        'error error-kind-conformance getOidcSettings',
        'error error-kind-conformance deleteServiceAccountToken',
        'error response-schema-conformance getProjectEnvironments',
        'error response-schema-conformance getOidcSettings',
        'error response-schema-conformance deleteServiceAccountToken',
        // A NUL in a project id reaches PostgreSQL: a 500.
        'error not-a-server-error getProjectEnvironments',
        // Any project id is 200, however odd: a project that does not exist too (spec decision unknown-ids-not-found).
        'error missing-project-not-found getProjectEnvironments',
        // Its 304 drops the Vary its 200 carries (Express strips Content-Type, so compression adds no Vary): RFC 9110 §15.4.5.
        'error conditional-after-auth getProjectEnvironments',
        'warning odd-id-rejected getProjectEnvironments',
      ].sort(),
    );

    const oidc = await direct('GET', '/api/admin/auth/oidc/settings', peer.adminToken);
    expect(oidc.status).toBe(404);
    expect(oidc.body).toMatchObject({ name: 'NotFoundError' });
    expect(contract.operation('getOidcSettings').responses.has('404')).toBe(false);
    expect((await direct('GET', '/api/admin/auth/oidc/settings', peer.viewerPat)).status).toBe(404);
    expect((await direct('DELETE', '/api/admin/service-account/1/token/1', peer.adminToken)).status).toBe(404);
    expect((await direct('DELETE', '/api/admin/service-account/1/token/1', peer.viewerPat)).status).toBe(404);

    const invalid = await direct('GET', '/api/admin/environments/project/default', `${peer.adminToken}x`);
    expect(invalid.status).toBe(401);
    expect(invalid.body?.name).toBe('UnauthorizedError');
    expect(contract.operation('getProjectEnvironments').responses.get('401')?.errorKind).toBe('AuthenticationRequired');
    const forbidden = await direct('GET', '/api/admin/environments/project/default', peer.clientToken);
    expect(forbidden).toEqual({ status: 403, body: { message: 'invalid token: expected a different token type for this endpoint' } });

    expect((await direct('GET', '/api/admin/environments/project/odd%00id', peer.adminToken)).status).toBe(500);
    expect((await direct('GET', `/api/admin/environments/project/no-such-project-${Date.now()}`, peer.adminToken)).status).toBe(200);

    // A 304 MUST carry the Vary its 200 would have (RFC 9110 §15.4.5); Unleash's 304 to its own ETag has none.
    // (node:http, not fetch: fetch adds Cache-Control: no-cache to a conditional request, and Express then never answers 304.)
    const headersOf = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) =>
        get(`${peer.url}/api/admin/environments/project/default`, { headers: { authorization: peer.adminToken, ...headers } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
        }).on('error', reject),
      );
    const read = await headersOf({});
    expect([read.status, read.headers.vary]).toEqual([200, 'Accept-Encoding']);
    const notModified = await headersOf({ 'if-none-match': read.headers.etag! });
    expect([notModified.status, notModified.headers.etag, notModified.headers.vary]).toEqual([304, read.headers.etag, undefined]);
  });

  it('judges Unleash\u2019s environment list conformant: the fields beside the spec\u2019s (visible, requiredApprovals) are allowed', async () => {
    const listed = await direct('GET', '/api/admin/environments/project/default', peer.adminToken);
    expect(listed.status).toBe(200);
    const environments = listed.body?.environments as Record<string, unknown>[];
    expect(environments.length).toBeGreaterThan(0);
    for (const environment of environments) expect(Object.keys(environment)).toEqual(expect.arrayContaining(['visible', 'requiredApprovals']));
    expect(contract.operation('getProjectEnvironments').responses.get('200')!.validate(listed.body)).toEqual([]);
    // The 200s judged wrong here would be about their shape. Unleash's 200 to a project that does not
    // exist is a finding of its status, listed with the run's other true differences above.
    expect(findings.filter((f) => f.operationId === 'getProjectEnvironments' && f.response?.status === 200 && f.severity === 'error' && f.checkId !== 'missing-project-not-found')).toEqual([]);
  });
});
