import { describe, expect, it } from 'vitest';
import { ResponseParser, type ResponseHead } from './response-parser.ts';

interface Parsed {
  informational: number[];
  head?: ResponseHead;
  body: string;
  trailers?: string[];
  keepAlive: boolean;
  excess: boolean;
  error?: string;
}

/** Feeds `message` cut at every place in turn (a byte at a time included) and asserts each cut parses as the whole does. */
function parse(message: string, options: { headRequest?: boolean; closeAfter?: boolean; maxHeaderBytes?: number } = {}): Parsed {
  const run = (pieces: Buffer[]): Parsed => {
    const out: Parsed = { informational: [], body: '', keepAlive: true, excess: false };
    const parser = new ResponseParser(
      {
        information: (head) => out.informational.push(head.status),
        head: (head) => (out.head = head),
        body: (chunk) => (out.body += chunk.toString('latin1')),
        end: (trailers) => (out.trailers = trailers),
      },
      { headRequest: options.headRequest ?? false, maxHeaderBytes: options.maxHeaderBytes ?? 1024 },
    );
    try {
      for (const piece of pieces) parser.feed(piece);
      if (options.closeAfter) parser.closed();
    } catch (error) {
      out.error = (error as { code: string }).code;
    }
    out.keepAlive = parser.keepAlive;
    out.excess = parser.excess;
    return out;
  };
  const bytes = Buffer.from(message, 'latin1');
  const whole = run([bytes]);
  for (let cut = 1; cut < bytes.length; cut++) expect(run([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual(whole);
  expect(run([...bytes].map((b) => Buffer.from([b]))), 'a byte at a time').toEqual(whole);
  return whole;
}

describe('the proxy upstream response parser (RFC 9112)', () => {
  it('keeps header lines as sent: case, order, repeats, and the reason phrase', () => {
    const got = parse('HTTP/1.1 201 Created Now\r\nX-B: 2\r\nset-cookie: a=1\r\nSet-Cookie:  b=2 \r\nContent-Length: 2\r\n\r\n{}');
    expect(got.head).toEqual({ minor: 1, status: 201, reason: 'Created Now', rawHeaders: ['X-B', '2', 'set-cookie', 'a=1', 'Set-Cookie', 'b=2', 'Content-Length', '2'] });
    expect([got.body, got.trailers, got.keepAlive, got.excess]).toEqual(['{}', [], true, false]);
  });

  it('frames a chunked body, skips chunk extensions, and hands on its trailer lines', () => {
    const got = parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: abc\r\n\r\n');
    expect([got.body, got.trailers, got.keepAlive]).toEqual(['hello world', ['X-Checksum', 'abc'], true]);
  });

  it('skips every 1xx, 100 Continue included, and parses the final answer after them (RFC 9110 §15.2)', () => {
    const got = parse('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx');
    expect([got.informational, got.head?.status, got.body]).toEqual([[100, 103], 200, 'x']);
  });

  it('reads no body for a HEAD request, a 204 or a 304, whatever Content-Length says', () => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', { headRequest: true })).toMatchObject({ body: '', trailers: [], keepAlive: true });
    expect(parse('HTTP/1.1 204 No Content\r\n\r\n')).toMatchObject({ body: '', trailers: [] });
    expect(parse('HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n')).toMatchObject({ body: '', trailers: [] });
  });

  it('reads a body without length to the close, and never reuses that connection', () => {
    expect(parse('HTTP/1.1 200 OK\r\n\r\nuntil the end', { closeAfter: true })).toMatchObject({ body: 'until the end', trailers: [], keepAlive: false });
    const unended = parse('HTTP/1.1 200 OK\r\n\r\npart');
    expect([unended.body, unended.trailers]).toEqual(['part', undefined]);
  });

  it('lets Transfer-Encoding override Content-Length and then closes the connection (RFC 9112 §6.3)', () => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n')).toMatchObject({ body: 'ok', keepAlive: false });
  });

  it('does not reuse a connection the answer closes, or one of HTTP/1.0 without keep-alive', () => {
    expect(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').keepAlive).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').keepAlive).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n').keepAlive).toBe(true);
  });

  it('marks bytes after a complete answer as excess (a backend writing past its Content-Length)', () => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}garbage')).toMatchObject({ body: '{}', excess: true });
  });

  it.each([
    ['a status line that is not HTTP/1.x', 'HTTP/2 200 OK\r\n\r\n', 'INVALID_STATUS_LINE'],
    ['a folded header line (obs-fold)', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  more\r\nContent-Length: 0\r\n\r\n', 'INVALID_HEADER'],
    ['whitespace before the colon', 'HTTP/1.1 200 OK\r\nX-A : 1\r\n\r\n', 'INVALID_HEADER'],
    ['a control character in a value', 'HTTP/1.1 200 OK\r\nX-A: a\u0001b\r\n\r\n', 'INVALID_HEADER'],
    ['two different Content-Lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx', 'INVALID_CONTENT_LENGTH'],
    ['a Content-Length that is no number', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', 'INVALID_CONTENT_LENGTH'],
    ['a chunk size that is not hex', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'INVALID_CHUNK'],
    ['chunk data longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n0\r\n\r\n', 'INVALID_CHUNK'],
    ['a 101 nobody asked for', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n', 'UNASKED_UPGRADE'],
  ])('refuses %s', (_, message, code) => {
    expect(parse(message).error).toBe(code);
  });

  it('refuses a header section over its limit, and takes one just under it', () => {
    const fields = (n: number) => `HTTP/1.1 200 OK\r\nX-Big: ${'b'.repeat(n)}\r\nContent-Length: 0\r\n\r\n`;
    expect(parse(fields(2000), { maxHeaderBytes: 1024 }).error).toBe('HEADER_OVERFLOW');
    const under = parse(fields(900), { maxHeaderBytes: 1024 });
    expect([under.error, under.trailers]).toEqual([undefined, []]);
  });
});
