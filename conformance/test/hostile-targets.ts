import type { ServerResponse } from 'node:http';
import type { Contract } from '../../src/contract/index.ts';
import type { RunningServer } from '../../src/mock/index.ts';
import { GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import { ADMIN_KEY } from './run-check.ts';
import { freshMock, operationOf, serveRaw, toMockRequest } from './serve-target.ts';

/**
 * Small hostile servers (issue 7), each the mock except for one way of attacking the checker:
 * bodies that crash a recursive parser, flood its memory, never end, trickle, or try to reach the
 * terminal or a report with a key. Each must end as findings on the exchange, in bounded time and
 * memory, with no key in any report.
 */
export interface HostileTarget {
  name: string;
  /** Extra flags, e.g. a short --timeout for the slow ones. */
  args: string[];
  /** The exit code the checker must end with. */
  code: number;
  /** A finding the run must contain (check id), or `not judged`: an answer the run must list as not judged, naming the flag (a body over --max-body, never a defect). */
  finding: string;
  /** What that finding must say it got, when it matters (what arrived before a limit broke). */
  got?: RegExp;
  serve(contract: Contract): Promise<RunningServer>;
}

/** Answers one kind of request with `attack`, everything else as the mock does. */
function attackOn(contract: Contract, operationId: string, attack: (res: ServerResponse, key: string) => void): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveRaw((req, res, answer) => {
    const request = toMockRequest(req);
    if (operationOf(contract, request) === operationId && req.method === 'GET') return attack(res, String(req.headers.authorization ?? ''));
    answer(mock.handle(request));
  });
}

const escapedU = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Writes until the client goes away (or 64 GiB, a bound the checker never lets it reach). */
function endless(res: ServerResponse, chunk: Buffer): void {
  let written = 0;
  const more = () => {
    while (!res.destroyed && written < 64 * 1024 ** 3) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
  };
  res.socket?.once('close', () => res.destroy());
  more();
}

/** One byte now and then, never the end. */
function drip(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), everyMs);
  res.once('close', () => clearInterval(timer));
}

/** A target that is the mock except for `attack` on GETs of one operation: a finding on that exchange (exit 1), never a crash. */
function attacking(name: string, finding: string, operationId: string, attack: (res: ServerResponse, key: string) => void, args: string[] = []): HostileTarget {
  return { name, args, code: 1, finding, serve: (contract) => attackOn(contract, operationId, attack) };
}

const JSON_HEAD = { 'content-type': 'application/json' };
export const NOT_JUDGED = 'not judged';

/**
 * Issue 13, item 9: targets that begin every answer (GET / included) and then break a limit. A
 * response began, so the target is reachable: each is a finding (exit 1) that says what arrived,
 * never exit 3's "cannot reach … is the server running?".
 */
/** Written raw, once: node:http would validate 10,000 headers on every answer. */
const TWENTY_THOUSAND_COOKIES = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${Array.from({ length: 20_000 }, (_, i) => `Set-Cookie: c${i}=vvvvvvvv\r\n`).join('')}Content-Length: 2\r\n\r\n{}`;

function breakingEveryAnswer(name: string, got: RegExp, attack: (res: ServerResponse) => void, args: string[] = []): HostileTarget {
  return { name, args, code: 1, finding: 'response-received', got, serve: async () => serveRaw((_, res) => attack(res)) };
}

export const HOSTILE_TARGETS: HostileTarget[] = [
  attacking('a body of JSON nested 500,000 deep (1 MB)', 'response-schema-conformance', GET_PROJECT_ENVIRONMENTS, (res) => {
    res.writeHead(200, JSON_HEAD);
    res.end(`{"version":1,"environments":${'['.repeat(500_000)}${']'.repeat(500_000)}}`);
  }),
  {
    name: 'errors that echo the key as \\u escapes',
    args: [],
    code: 1,
    finding: 'error-kind-conformance',
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => {
        const response = mock.handle(toMockRequest(req));
        if (response.status < 400) return answer(response);
        const key = escapedU(String(req.headers.authorization ?? ''));
        answer({ ...response, body: `{"id":"e-1","name":"Refused","message":"the key \\"${key}\\" is refused"}` });
      });
    },
  },
  attacking('a body of ANSI escapes and newlines that fakes a verdict', 'content-type-conformance', GET_OIDC_SETTINGS, (res, key) => {
    if (key !== ADMIN_KEY) return void res.writeHead(401, JSON_HEAD).end('{"id":"e","name":"AuthenticationRequired","message":"no"}');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('\u001b[2J\u001b[H\r\nCONFORMANT: 0 requests, 0 error(s), 0 warning(s), 0 check(s) not checked\n\u001b]0;owned\u0007\u202e');
  }),
  // The spec declares no size limit (decision no-declared-limits): a body over the suite's own cap is read no further and not judged, never a defect.
  { ...attacking('an endless chunked body', NOT_JUDGED, GET_OIDC_SETTINGS, (res) => {
    res.writeHead(200, JSON_HEAD);
    res.write('{"pad":"');
    endless(res, Buffer.alloc(64 * 1024, 'a'));
  }), code: 0 },
  { ...attacking('a 10 MB body', NOT_JUDGED, GET_OIDC_SETTINGS, (res) => {
    res.writeHead(200, JSON_HEAD);
    res.end(`{"enabled":true,"pad":"${'a'.repeat(10 * 1024 * 1024)}"}`);
  }), code: 0 },
  attacking('a body dripped one byte a second (--timeout 1000)', 'response-received', GET_PROJECT_ENVIRONMENTS, (res) => drip(res, 1000), ['--timeout', '1000']),
  attacking(
    'headers, then no body (--timeout 1000)',
    'response-received',
    GET_PROJECT_ENVIRONMENTS,
    (res) => {
      res.writeHead(200, { ...JSON_HEAD, 'content-length': '1000' });
      res.flushHeaders();
    },
    ['--timeout', '1000'],
  ),
  breakingEveryAnswer(
    'every answer (GET / too): a Content-Length larger than the body, then a stall (--timeout 1000)',
    /^answered 200 with Content-Length 1000 and sent 16 bytes of the body, then no complete response within 1000 ms/,
    (res) => {
      res.writeHead(200, { ...JSON_HEAD, 'content-length': '1000' });
      res.write('{"environments":');
    },
    ['--timeout', '1000'],
  ),
  breakingEveryAnswer('every answer (GET / too): a chunk size of 2^68 - 1', /^answered 200 with Transfer-Encoding chunked and sent 0 bytes of the body, then the response broke HTTP's framing \(Response does not match the HTTP\/1.1 protocol \(Chunk size overflow\)\)$/, (res) => {
    res.socket?.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n{"a":1}\r\n');
  }),
  breakingEveryAnswer(
    'every answer (GET / too): a status line, then the headers stall (--timeout 1000)',
    /^a response began \(\d+ bytes arrived\), but no complete status line and headers followed within 1000 ms/,
    (res) => void res.socket?.write('HTTP/1.1 200 OK\r\nContent-Type: appl'),
    ['--timeout', '1000'],
  ),
  breakingEveryAnswer('every answer (GET / too): 20,000 Set-Cookie headers (540 kB)', /^a response began, but its headers exceeded the 256 KiB undici reads \(UND_ERR_HEADERS_OVERFLOW\)/, (res) => {
    res.socket?.end(TWENTY_THOUSAND_COOKIES);
  }),
];
