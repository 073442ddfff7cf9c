import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../types.ts';
import { readExchanges } from '../read-exchange.ts';
import { contentLengthAllowed } from './content-length-allowed.ts';
import { contentLengthZeroOnNoContent } from './content-length-zero-on-no-content.ts';
import type { RuleContext } from '../rule.ts';

const BODY = '{"environments":[]}';
const OK = { status: 200, headers: { 'content-type': 'application/json', etag: '"v1"', 'content-length': String(BODY.length) }, body: BODY };
const judge = (exchanges: Exchange[]) => contentLengthAllowed.judge(exchanges, { all: exchanges } as unknown as RuleContext);
const verdicts = (exchanges: Exchange[]) => judge(exchanges).map((j) => j.verdict);

describe('Content-Length only where RFC 9110 §8.6 allows it', () => {
  it('fails a 204 whose Content-Length announces content, and a final 1xx that carries one, even 0; leaves a 204 with 0 to content-length-zero-on-no-content', () => {
    const exchange = readExchanges();
    const noContent = exchange('full', { status: 204, headers: { allow: 'GET, HEAD', 'content-length': '17' }, body: '' });
    const interim = exchange('full', { status: 101, headers: { 'content-length': '0' }, body: '' });
    const zero = exchange('full', { status: 204, headers: { allow: 'GET, HEAD', 'content-length': '0' }, body: '' });
    const judged = judge([noContent, interim, zero]);
    expect(judged.map((j) => j.verdict)).toEqual(['failed', 'failed']);
    expect(judged[0]!.verdict === 'failed' && judged[0]!.finding.got).toBe('204 with Content-Length: 17');
    const warned = contentLengthZeroOnNoContent.judge([noContent, interim, zero], { all: [noContent, interim, zero] } as unknown as RuleContext);
    expect(warned.map((j) => j.verdict)).toEqual(['passed', 'passed', 'failed']);
    expect(warned[2]!.verdict === 'failed' && warned[2]!.finding.got).toBe('204 with Content-Length: 0');
    expect(contentLengthZeroOnNoContent.severity).toBe('warning');
  });

  it('passes a 204 without Content-Length and the 200s that carry theirs', () => {
    const exchange = readExchanges();
    expect(verdicts([exchange('full', { status: 204, headers: { allow: 'GET, HEAD' }, body: '' }), exchange('full', OK)])).toEqual(['passed', 'passed']);
  });

  it("fails a 304 whose Content-Length is not the length of the 200 with the same ETag: 0 is the 304's own empty body", () => {
    const exchange = readExchanges();
    const read = exchange('full', OK);
    const notModified = exchange('full', { status: 304, headers: { etag: '"v1"', 'content-length': '0' }, body: '' }, { 'if-none-match': '"v1"' }, 'if-none-match');
    const judged = judge([read, notModified]);
    expect(judged.map((j) => j.verdict)).toEqual(['passed', 'failed']);
    expect(judged[1]!.verdict === 'failed' && judged[1]!.finding.expected).toContain(String(BODY.length));
  });

  it("passes a 304 with the 200's Content-Length or none, matched by the ETag sent when the 304 carries none (weak comparison)", () => {
    const exchange = readExchanges();
    const read = exchange('full', OK);
    const same = exchange('full', { status: 304, headers: { etag: 'W/"v1"', 'content-length': String(BODY.length) }, body: '' }, { 'if-none-match': 'W/"v1"' }, 'if-none-match');
    const none = exchange('full', { status: 304, headers: { etag: '"v1"' }, body: '' }, { 'if-none-match': '"v1"' }, 'if-none-match');
    const byRequest = exchange('full', { status: 304, headers: { 'content-length': '3' }, body: '' }, { 'If-None-Match': '"v1"' }, 'if-none-match');
    expect(verdicts([read, same, none, byRequest])).toEqual(['passed', 'passed', 'passed', 'failed']);
  });

  it('leaves a 304 alone when the run saw no 200 of that representation: another tag, another Accept-Encoding, no Content-Length on the 200, no validator', () => {
    const exchange = readExchanges();
    const gzip = exchange('full', { ...OK, headers: { ...OK.headers, 'content-encoding': 'gzip', 'content-length': '40' } }, { 'accept-encoding': 'gzip' });
    const chunked = exchange('full', { status: 200, headers: { etag: '"v2"', 'transfer-encoding': 'chunked' }, body: BODY });
    const otherTag = exchange('full', { status: 304, headers: { etag: '"v3"', 'content-length': '0' }, body: '' }, { 'if-none-match': '"v3"' }, 'if-none-match');
    const identity = exchange('full', { status: 304, headers: { etag: '"v1"', 'content-length': '0' }, body: '' }, { 'if-none-match': '"v1"' }, 'if-none-match');
    const ofChunked = exchange('full', { status: 304, headers: { etag: '"v2"', 'content-length': '0' }, body: '' }, { 'if-none-match': '"v2"' }, 'if-none-match');
    const noValidator = exchange('full', { status: 304, headers: { 'content-length': '0' }, body: '' }, { 'if-none-match': '*' }, 'if-none-match-any');
    // The gzip 200 is judged (passed); none of the four 304s is: no 200 to the same request with a length to compare.
    expect(verdicts([gzip, chunked, otherTag, identity, ofChunked, noValidator])).toEqual(['passed', 'passed']);
  });

  it('matches a 304 to an If-Modified-Since by the Last-Modified of the 200 it echoes', () => {
    const exchange = readExchanges();
    const date = 'Tue, 24 Nov 2026 10:00:00 GMT';
    const read = exchange('full', { status: 200, headers: { 'last-modified': date, 'content-length': String(BODY.length) }, body: BODY });
    const notModified = exchange('full', { status: 304, headers: { 'content-length': '0' }, body: '' }, { 'if-modified-since': date }, 'if-modified-since');
    expect(verdicts([read, notModified])).toEqual(['passed', 'failed']);
  });
});
