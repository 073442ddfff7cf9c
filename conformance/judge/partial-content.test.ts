import { describe, expect, it } from 'vitest';
import type { Credential, Exchange } from '../types.ts';
import { judgeRangeAnswer } from './partial-content.ts';
import { readExchanges } from './read-exchange.ts';

const PATH = '/api/admin/environments/project/default';
const BODY = '{"version":1,"environments":[{"name":"development"},{"name":"production"}]}';
const GIVEN = { status: 200, headers: { 'content-type': 'application/json', etag: '"v1"' }, body: BODY };
const exchange = readExchanges(PATH);
const partial = (first: number, last: number, headers: Record<string, string> = {}, body = BODY.slice(first, last + 1)) => ({ status: 206, headers: { 'content-type': 'application/json', 'content-range': `bytes ${first}-${last}/${BODY.length}`, ...headers }, body });
const judge = (response: Exchange['response'], sent: Record<string, string>, credential: Credential = 'full', earlier = [exchange(credential, GIVEN)]) => {
  const asked = exchange(credential, response, sent, 'range');
  return judgeRangeAnswer(asked, [...earlier, asked]);
};

describe('a 206 or 416 to a Range variant (spec decision range-requests, RFC 9110 §14)', () => {
  it('stands for the 200 of the same request when its Content-Range names the bytes it carries', () => {
    expect(judge(partial(2, 11), { range: 'bytes=2-11' })).toEqual({ standsFor: GIVEN });
    expect(judge(partial(BODY.length - 5, BODY.length - 1), { range: 'bytes=-5' })).toEqual({ standsFor: GIVEN });
    // Several ranges coalesced into one part (RFC 9110 §14.2).
    expect(judge(partial(0, BODY.length - 1), { range: 'bytes=0-4, -5' })).toEqual({ standsFor: GIVEN });
  });

  it('stands for the 200 as multipart/byteranges whose parts each carry their Content-Range', () => {
    const part = (first: number, last: number) => `\r\n--b\r\nContent-Type: application/json\r\nContent-Range: bytes ${first}-${last}/${BODY.length}\r\n\r\n${BODY.slice(first, last + 1)}`;
    const body = `${part(0, 4)}${part(BODY.length - 5, BODY.length - 1)}\r\n--b--\r\n`;
    expect(judge({ status: 206, headers: { 'content-type': 'multipart/byteranges; boundary=b' }, body }, { range: 'bytes=0-4, -5' })).toEqual({ standsFor: GIVEN });
    const wrong = `${part(0, 4).replace(BODY.slice(0, 5), BODY.slice(1, 6))}\r\n--b--\r\n`;
    expect(judge({ status: 206, headers: { 'content-type': 'multipart/byteranges; boundary=b' }, body: wrong }, { range: 'bytes=0-4, -5' })?.problem).toMatch(/part 1 of the 206 carries bytes other than bytes 0-4/);
  });

  it('finds the 206 that lacks Content-Range, names other bytes, another length, or more bytes than it says', () => {
    const { 'content-range': _, ...noRange } = partial(2, 11).headers;
    expect(judge({ ...partial(2, 11), headers: noRange }, { range: 'bytes=2-11' })?.problem).toMatch(/no Content-Range \(RFC 9110 §15\.3\.7\.1/);
    expect(judge(partial(2, 11, {}, BODY.slice(3, 13)), { range: 'bytes=2-11' })?.problem).toMatch(/bytes other than bytes 2-11/);
    expect(judge(partial(2, 11, { 'content-range': 'bytes 2-11/10' }), { range: 'bytes=2-11' })?.problem).toMatch(/the 200 to the same request has \d+ bytes/);
    expect(judge(partial(2, 11, {}, BODY.slice(2, 11)), { range: 'bytes=2-11' })?.problem).toMatch(/\(10 bytes\) but carries 9 bytes/);
  });

  it('finds a 206 or 416 where the same request without Range is refused, to another unit, or despite an If-Range that does not match', () => {
    expect(judge(partial(2, 11), { range: 'bytes=2-11' }, 'none', [exchange('none', { status: 401, headers: {}, body: '{}' })])?.problem).toMatch(/without Range got 401/);
    expect(judge(partial(2, 11), { range: 'items=2-11' })?.problem).toMatch(/range unit .* MUST be ignored/);
    expect(judge(partial(2, 11), { range: 'bytes=2-11', 'if-range': '"never"' })?.problem).toMatch(/If-Range/);
    expect(judge(partial(2, 11), { range: 'bytes=2-11', 'if-range': '"v1"' })).toEqual({ standsFor: GIVEN });
  });

  it('allows a 416 only to a range set none of whose ranges the representation has (or an invalid one), its Content-Range bytes */length', () => {
    const refused = (headers: Record<string, string>) => ({ status: 416, headers, body: '' });
    expect(judge(refused({ 'content-range': `bytes */${BODY.length}` }), { range: 'bytes=999999999-' })).toEqual({ standsFor: GIVEN });
    expect(judge(refused({}), { range: 'bytes=999999999-' })).toEqual({ standsFor: GIVEN });
    expect(judge(refused({}), { range: 'bytes=abc' })).toEqual({ standsFor: GIVEN });
    expect(judge(refused({ 'content-range': 'bytes */0' }), { range: 'bytes=999999999-' })?.problem).toMatch(/current length/);
    expect(judge(refused({}), { range: 'bytes=2-11' })?.problem).toMatch(/are in the \d+ bytes/);
    expect(judge(refused({}), { range: 'items=0-9' })?.problem).toMatch(/MUST be ignored/);
  });
});
