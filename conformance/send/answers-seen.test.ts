import { describe, expect, it } from 'vitest';
import { AnswersSeen, setCookies } from './answers-seen.ts';

describe('what the target handed out, kept for the variants that send it back', () => {
  it('keeps the validators of successes per path (query aside) and every cookie any answer set', () => {
    const seen = new AnswersSeen();
    seen.learn('/api/a?_=1', { status: 200, headers: { etag: 'W/"1"', 'last-modified': 'Tue, 24 Nov 2026 10:00:00 GMT', 'set-cookie': 'sid=abc; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly, lb=node-1; Path=/' } });
    seen.learn('/api/b', { status: 401, headers: { etag: '"refused"', 'set-cookie': 'csrf=x1' } });
    expect([seen.etags.get('/api/a'), seen.lastModified.get('/api/a'), seen.etags.get('/api/b')]).toEqual(['W/"1"', 'Tue, 24 Nov 2026 10:00:00 GMT', undefined]);
    expect(seen.cookieHeader()).toBe('sid=abc; lb=node-1; csrf=x1');
  });

  it('sends no Cookie when no answer set one, and reads a cookie value holding = and spaces around it', () => {
    expect(new AnswersSeen().cookieHeader()).toBeUndefined();
    expect(setCookies(' token = a=b==; Secure')).toEqual([['token', 'a=b==']]);
    expect(setCookies('no-value-here')).toEqual([]);
  });

  it('keeps at most 50 cookies and a Cookie header of at most 4096 bytes, however many a target sets', () => {
    const seen = new AnswersSeen();
    seen.learn('/', { status: 200, headers: { 'set-cookie': Array.from({ length: 10_000 }, (_, i) => `c${i}=${'v'.repeat(200)}`).join(', ') } });
    expect(seen.cookies.size).toBe(50);
    expect(seen.cookieHeader()!.length).toBeLessThanOrEqual(4096);
  });
});
