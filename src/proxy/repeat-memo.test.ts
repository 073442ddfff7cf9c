import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createRepeatMemo, lazyResponse, type PassedAnswer } from './repeat-memo.ts';

const body = JSON.stringify({ enabled: true, clientId: 'client-1' });
const answer = (bytes: Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }): PassedAnswer => ({ status: 200, headers, bytes });

describe('repeat memo', () => {
  it('takes the same bytes to the same read by the same key for a repeat, and nothing after a write, another key or other bytes', () => {
    const memo = createRepeatMemo();
    const first = answer(Buffer.from(body));
    memo.judged('GET', '/api/admin/auth/oidc/settings', 'k', first);
    expect(memo.isRepeat('GET', '/api/admin/auth/oidc/settings', 'k', answer(Buffer.from(body)))).toBe(true);
    expect(memo.isRepeat('GET', '/api/admin/auth/oidc/settings', 'other', answer(Buffer.from(body)))).toBe(false);
    expect(memo.isRepeat('GET', '/api/admin/auth/oidc/settings', 'k', answer(Buffer.from(body.replace('client-1', 'client-2'))))).toBe(false);
    memo.judged('PUT', '/api/admin/auth/oidc/settings', 'k', undefined);
    expect(memo.isRepeat('GET', '/api/admin/auth/oidc/settings', 'k', answer(Buffer.from(body)))).toBe(false);
  });

  it('gives a repeated answer to the judge and the recorder with its body decoded on first read, as sent otherwise', () => {
    const gzipped = answer(gzipSync(body), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const response = lazyResponse(gzipped, 1024);
    expect([response.status, response.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(JSON.parse(response.body)).toEqual({ enabled: true, clientId: 'client-1' });
    // Read twice, decoded once: the same string.
    expect(response.body).toBe(response.body);
    // A body that cannot be decoded within the cap reads as empty, as the judge is told elsewhere (decode-content.ts).
    expect(lazyResponse(answer(gzipSync('x'.repeat(4096)), { 'content-encoding': 'gzip' }), 100).body).toBe('');
  });
});
