import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../types.ts';
import type { RuleContext } from '../rule.ts';
import { acceptable, contentCodingAccepted } from './content-coding-accepted.ts';

let seq = 0;
function answered(accept: string | undefined, contentEncoding: string | undefined): Exchange {
  return {
    operationId: 'getOidcSettings',
    step: 'variant',
    label: 'a variant',
    credential: 'full',
    method: 'GET',
    path: '/api/admin/auth/oidc/settings',
    expects: [],
    seq: seq++,
    request: { method: 'GET', url: 'http://127.0.0.1:1/api/admin/auth/oidc/settings', headers: accept === undefined ? {} : { 'Accept-Encoding': accept } },
    response: { status: 200, headers: contentEncoding === undefined ? {} : { 'content-encoding': contentEncoding }, body: '{}' },
  };
}
const verdicts = (exchanges: Exchange[]) => contentCodingAccepted.judge(exchanges, {} as RuleContext).map((j) => j.verdict);

describe('acceptable (RFC 9110 §12.5.3)', () => {
  it('refuses a coding with q=0, one not named without *, and every coding for an empty value', () => {
    expect(acceptable('gzip', 'gzip;q=0, identity')).toBe(false);
    expect(acceptable('gzip', 'GZIP ; Q=0.000')).toBe(false);
    expect(acceptable('br', 'gzip, deflate')).toBe(false);
    expect(acceptable('gzip', '')).toBe(false);
    expect(acceptable('gzip', 'br;q=0, *;q=0.5')).toBe(true);
    expect(acceptable('x-gzip', 'gzip')).toBe(true);
    expect(acceptable('br', 'gzip, deflate, br')).toBe(true);
  });

  it('keeps identity acceptable unless refused by name or by *;q=0', () => {
    expect(acceptable('identity', 'gzip;q=0')).toBe(true);
    expect(acceptable('identity', '')).toBe(true);
    expect(acceptable('identity', 'identity;q=0')).toBe(false);
    expect(acceptable('identity', '*;q=0')).toBe(false);
    expect(acceptable('identity', '*;q=0, identity')).toBe(true);
  });
});

describe('content-coding-accepted', () => {
  it('fails gzip to gzip;q=0 and br to an empty Accept-Encoding, passes identity to both', () => {
    expect(verdicts([answered('gzip;q=0, identity', 'gzip'), answered('', 'br'), answered('gzip;q=0, identity', undefined), answered('', 'identity')])).toEqual(['failed', 'failed', 'passed', 'passed']);
  });

  it('passes any coding asked for, and judges nothing where the request had no Accept-Encoding (any coding is acceptable)', () => {
    expect(verdicts([answered('gzip, deflate, br', 'br'), answered(undefined, 'zstd')])).toEqual(['passed']);
  });

  it('names the refused coding and what the request said', () => {
    const [judgement] = contentCodingAccepted.judge([answered('gzip;q=0, identity', 'gzip')], {} as RuleContext);
    expect(judgement).toMatchObject({ verdict: 'failed', finding: { message: expect.stringContaining('q=0 means "not acceptable"'), got: 'Content-Encoding: gzip' } });
  });
});
