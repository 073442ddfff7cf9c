import { describe, expect, it } from 'vitest';
import { readExchanges } from './read-exchange.ts';
import { notModifiedStandsFor } from './not-modified.ts';

const GIVEN = { status: 200, headers: { 'content-type': 'application/json', etag: '"v1"', 'last-modified': 'Tue, 24 Nov 2026 10:00:00 GMT' }, body: '{}' };
const exchange = readExchanges();
const notModified = { status: 304, headers: { etag: '"v1"' }, body: '' };

describe('a 304 to a conditional variant (spec decision conditional-requests)', () => {
  it('stands for the 200 the same key got earlier when the validator matches it: the ETag (weakly), *, a Last-Modified no later', () => {
    const earlier = exchange('full', GIVEN);
    for (const [sent, kind] of [[{ 'if-none-match': 'W/"v1"' }, 'if-none-match-given'], [{ 'if-none-match': '*' }, 'if-none-match-any'], [{ 'if-modified-since': 'Tue, 24 Nov 2026 10:00:00 GMT' }, 'if-modified-since-recent']] as const) {
      const asked = exchange('full', notModified, sent, kind);
      expect(notModifiedStandsFor(asked, [earlier, asked])).toBe(GIVEN);
    }
  });

  it('stands for nothing before auth, to another tag, to an earlier date, or before any 200', () => {
    const earlier = exchange('full', GIVEN);
    const cases = [
      exchange('none', notModified, { 'if-none-match': '"v1"' }, 'if-none-match-given'),
      exchange('invalid', notModified, { 'if-none-match': '*' }, 'if-none-match-any'),
      exchange('full', notModified, { 'if-none-match': '"v0"' }, 'if-none-match'),
      exchange('full', notModified, { 'if-modified-since': 'Tue, 24 Nov 2026 09:59:59 GMT' }, 'if-modified-since-recent'),
    ];
    for (const asked of cases) expect(notModifiedStandsFor(asked, [earlier, asked])).toBeUndefined();
    const first = exchange('full', notModified, { 'if-none-match': '*' }, 'if-none-match-any');
    expect(notModifiedStandsFor(first, [first, exchange('full', GIVEN)])).toBeUndefined();
  });

  it('stands for nothing when the 304 carries another ETag than the 200 (RFC 9110 §15.4.5), nor when it carries none where the 200 did', () => {
    const earlier = exchange('full', GIVEN);
    const otherTag = exchange('full', { status: 304, headers: { etag: '"d41d8cd9"' }, body: '' }, { 'if-none-match': '"v1"' }, 'if-none-match-given');
    expect(notModifiedStandsFor(otherTag, [earlier, otherTag])).toBeUndefined();
    const noTag = exchange('full', { status: 304, headers: {}, body: '' }, { 'if-none-match': '"v1"' }, 'if-none-match-given');
    expect(notModifiedStandsFor(noTag, [earlier, noTag])).toBeUndefined();
  });

  it('stands for nothing when it lacks a field of RFC 9110 §15.4.5 the 200 carried (Cache-Control, Content-Location, Date, ETag, Expires, Vary), whatever their case; fields the 200 lacked are not asked for', () => {
    const carried: Record<string, string> = { 'cache-control': 'private, no-cache', 'content-location': '/api/admin/environments/project/default', date: 'Tue, 24 Nov 2026 10:00:01 GMT', expires: 'Tue, 24 Nov 2026 10:00:01 GMT', vary: 'Accept-Encoding' };
    const earlier = exchange('full', { ...GIVEN, headers: { ...GIVEN.headers, ...carried } });
    const all = exchange('full', { status: 304, headers: { ETag: '"v1"', ...Object.fromEntries(Object.entries(carried).map(([n, v]) => [n.toUpperCase(), v])) }, body: '' }, { 'if-none-match': '"v1"' }, 'if-none-match-given');
    expect(notModifiedStandsFor(all, [earlier, all])).toBe(earlier.response);
    for (const name of Object.keys(carried)) {
      const { [name]: _, ...rest } = carried;
      const lacking = exchange('full', { status: 304, headers: { etag: '"v1"', ...rest }, body: '' }, { 'if-none-match': '"v1"' }, 'if-none-match-given');
      expect(notModifiedStandsFor(lacking, [earlier, lacking]), name).toBeUndefined();
    }
    // The 200 to an If-Modified-Since carried no ETag: a 304 without one is all it owes.
    const dated = exchange('full', { status: 200, headers: { 'last-modified': GIVEN.headers['last-modified'] }, body: '{}' });
    const plain = exchange('full', { status: 304, headers: {}, body: '' }, { 'if-modified-since': 'Tue, 24 Nov 2026 10:00:00 GMT' }, 'if-modified-since-recent');
    expect(notModifiedStandsFor(plain, [dated, plain])).toBe(dated.response);
  });
});

describe('a 304 to an If-Modified-Since that is no HTTP-date (RFC 9110 §13.1.3: ignored)', () => {
  it('stands for nothing however late a lenient parser reads the value, and for the 200 when the value is one of the three HTTP-date forms', () => {
    const earlier = exchange('full', GIVEN);
    for (const value of ['2099-01-01', '2099-01-01T00:00:00Z', '2099', '2099-01-01T00:00:00+01:00']) {
      const asked = exchange('full', notModified, { 'if-modified-since': value }, 'conditional-lenient');
      expect(notModifiedStandsFor(asked, [earlier, asked]), value).toBeUndefined();
    }
    for (const value of ['Fri, 01 Jan 2099 00:00:00 GMT', 'Saturday, 28-Nov-26 10:00:00 GMT', 'Fri Jan  1 00:00:00 2099']) {
      const asked = exchange('full', notModified, { 'if-modified-since': value }, 'if-modified-since-recent');
      expect(notModifiedStandsFor(asked, [earlier, asked]), value).toBe(GIVEN);
    }
  });
});
