import type { Contract } from '../../src/contract/index.ts';
import type { Mock, MockRequest, MockResponse, RunningServer } from '../../src/mock/index.ts';
import { breakResponses, freshMock } from './serve-target.ts';
import { frame, serveSocket, type SocketOptions, type SocketRequest } from './serve-socket.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import type { BrokenTarget } from './broken-targets.ts';

/**
 * Red team round ten's wire principles (test/red-team/round-10/BASELINE.md), each as a server of
 * our own that is not a copy of the round's: the request target in another form or spelling, a
 * repeated credential or Host, an HTTP/1.0 client, `Connection: close`, the answer's own framing
 * and its HTTP-date fields. Each conformant one differs where HTTP allows it and must pass.
 */

const ADMIN_KEY = 'mock-admin-key';
const asAdmin = (request: MockRequest): MockRequest => ({ ...request, headers: { ...request.headers, authorization: ADMIN_KEY } });

/** The mock behind a socket server (serve-socket.ts): the request as it came off the wire, framed by `write`. */
function socketMock(contract: Contract, answer: (request: SocketRequest, mock: Mock) => MockResponse | { raw: string } | Promise<MockResponse | { raw: string }>, options?: SocketOptions): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveSocket((request) => answer(request, mock), options);
}

/** The path of an absolute-form target (RFC 9112 §3.2.2), or the target unchanged. */
const originForm = (url: string) => (/^https?:\/\//i.test(url) ? url.replace(/^https?:\/\/[^/]*/i, '') || '/' : url);

/** The mock's answer as bytes, with the line ending given and, where `chunked`, Transfer-Encoding instead of Content-Length. */
function framed(response: MockResponse, head: boolean, options: { eol?: string; chunked?: boolean; extra?: Record<string, string> } = {}): { raw: string } {
  const eol = options.eol ?? '\r\n';
  const body = head || response.status === 204 || response.status === 304 ? '' : (response.body ?? '');
  const lines = [`HTTP/1.1 ${response.status} Status`, ...Object.entries({ ...response.headers, ...options.extra }).map(([n, v]) => `${n}: ${v}`)];
  // RFC 9110 §8.6, RFC 9112 §6.1: a 204 or 304 carries neither Content-Length nor Transfer-Encoding (these targets' defects are elsewhere).
  const bodiless = response.status === 204 || response.status === 304;
  if (!bodiless) lines.push(options.chunked ? 'transfer-encoding: chunked' : `content-length: ${Buffer.byteLength(response.body ?? '')}`);
  const content = options.chunked && !head && !bodiless ? `${body.length ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n` : ''}0\r\n\r\n` : body;
  return { raw: `${lines.join(eol)}${eol}${eol}${Buffer.from(content, 'utf8').toString('latin1')}` };
}

const imf = (ms: number) => new Date(ms).toUTCString();

/** `alone`: caught by its rule and no other, so it is that rule's own target in broken-targets.ts (WIRE_ALONE_TARGETS), not run twice. */
export const WIRE_BROKEN_TARGETS: (InvarianceTarget & { alone?: true })[] = [
  {
    // A read cache in front answers absolute-form GETs from the admin's warm entries (it takes them for a proxy's request and skips the
    // key check); the router reads both forms.
    name: 'absolute-form target skips the key check',
    dimension: 'headers',
    caughtBy: ['request-target-forms'],
    serve: (contract) => socketMock(contract, (request, mock) => (request.url.startsWith('/') || request.method !== 'GET' ? mock.handle(request) : mock.handle(asAdmin({ ...request, url: originForm(request.url) })))),
  },
  {
    // Tomcat-style path parameters: the router drops `;…` from each segment, the guard compares the raw prefix `/api/admin/`.
    name: 'a path parameter after a semicolon in a segment skips the key check (Tomcat matrix parameters)',
    dimension: 'headers',
    caughtBy: ['request-target-forms'],
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const routed = request.url.replace(/;[^/?]*/g, '');
        return request.url.startsWith('/api/admin/') ? mock.handle({ ...request, url: routed }) : mock.handle(asAdmin({ ...request, url: routed }));
      }),
  },
  {
    // The Authorization lines are read as one list and any value that is a key grants it (RFC 9110 §5.3 joins them; none of the list is the credential).
    name: 'two Authorization lines: any line holding a valid key is accepted',
    dimension: 'headers',
    caughtBy: ['malformed-requests-refused'],
    alone: true,
    serve: (contract) =>
      socketMock(contract, (request, mock) => {
        const keys = request.rawHeaders.filter(([n]) => n.toLowerCase() === 'authorization').map(([, v]) => v);
        return mock.handle(keys.includes(ADMIN_KEY) ? asAdmin(request) : { ...request, headers: { ...request.headers, authorization: keys[0] ?? '' } });
      }),
  },
  {
    // A request without Host is answered as one for localhost (a virtual-host default; RFC 9112 §3.2: 400), two Host lines are refused.
    name: 'no Host is answered as localhost, two Host lines refused',
    dimension: 'headers',
    caughtBy: ['malformed-requests-refused'],
    alone: true,
    serve: (contract) =>
      socketMock(
        contract,
        (request, mock) => {
          if (request.rawHeaders.filter(([n]) => n.toLowerCase() === 'host').length > 1) return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request\n' };
          return mock.handle({ ...request, headers: { host: 'localhost', ...request.headers } });
        },
        { acceptAnyHost: true },
      ),
  },
  {
    // Large answers are streamed chunked to every client, HTTP/1.0 included (RFC 9112 §6.1: never Transfer-Encoding to HTTP/1.0).
    name: 'answers over 200 bytes are chunked, also to HTTP/1.0 requests',
    dimension: 'connection',
    caughtBy: ['connection-semantics-kept'],
    alone: true,
    serve: (contract) =>
      socketMock(contract, async (request, mock) => {
        const answer = await mock.handle(request);
        return framed(answer, request.method === 'HEAD', { chunked: Buffer.byteLength(answer.body ?? '') > 200 });
      }),
  },
  {
    // `Connection: close` is honoured only on refusals: an answer with data leaves the connection open (RFC 9112 §9.6).
    name: 'Connection: close honoured only on 4xx answers',
    dimension: 'connection',
    caughtBy: ['connection-semantics-kept'],
    alone: true,
    serve: (contract) => {
      const mock = freshMock(contract);
      const statuses = new WeakMap<SocketRequest, number>();
      return serveSocket(
        async (request) => {
          const answer = await mock.handle(request);
          statuses.set(request, answer.status);
          return answer;
        },
        { closeAfter: (request) => ((statuses.get(request) ?? 200) >= 400 ? 0 : 'never') },
      );
    },
  },
  {
    // The status line ends in LF alone, the header lines in CRLF (RFC 9112 §2.2: every line ends in CRLF; node's parser refuses it).
    name: 'the status line ends in a bare LF',
    dimension: 'connection',
    caughtBy: ['response-received', 'connection-independent'],
    serve: (contract) =>
      socketMock(contract, async (request, mock) => {
        const { raw } = framed(await mock.handle(request), request.method === 'HEAD');
        const [head, ...rest] = raw.split('\r\n\r\n');
        const [status, ...fields] = head!.split('\r\n');
        return { raw: `${status}\n${fields.join('\r\n')}\r\n\r\n${rest.join('\r\n\r\n')}` };
      }),
  },
  {
    // Last-Modified written with a numeric zone (RFC 5322's date, not an HTTP-date: RFC 9110 §5.6.7).
    name: 'Last-Modified in RFC 5322 form with +0000',
    dimension: 'headers',
    caughtBy: ['http-dates-valid'],
    serve: (contract) => breakResponses(contract, (_, res) => (res.status === 200 ? { ...res, headers: { ...res.headers, 'last-modified': imf(Date.now() - 60_000).replace('GMT', '+0000') } } : res)),
  },
  {
    // The configuration's timestamp ten minutes ahead of the answer's own Date (RFC 9110 §8.8.2.1).
    name: 'Last-Modified ten minutes after the Date of its answer',
    dimension: 'headers',
    caughtBy: ['http-dates-valid'],
    serve: (contract) => breakResponses(contract, (_, res) => (res.status === 200 ? { ...res, headers: { ...res.headers, date: imf(Date.now()), 'last-modified': imf(Date.now() + 600_000) } } : res)),
  },
];

export const WIRE_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // RFC 9112 §3.2.2: a server MUST accept the absolute-form; this one also collapses `//` and resolves `/./` before routing, auth and all.
    name: 'absolute-form targets accepted, doubled slashes and dot segments normalized before auth',
    serve: (contract) => socketMock(contract, (request, mock) => mock.handle({ ...request, url: originForm(request.url).replace(/\/\.(?=\/)/g, '').replace(/\/{2,}/g, '/') })),
  },
  {
    // Closes a moment after the answer to `Connection: close` (a lingering close), with no Connection header in the answer.
    name: 'Connection: close honoured 200 ms after the answer',
    serve: (contract) => socketMock(contract, (request, mock) => mock.handle(request), { closeAfter: () => 200 }),
  },
  {
    // Last-Modified equal to the answer's Date, and Date in the obsolete asctime form, which recipients must accept (RFC 9110 §5.6.7): a warning only.
    name: 'Last-Modified equal to Date, Date in asctime form',
    warnings: ['http-dates-imf-fixdate'],
    serve: (contract) =>
      breakResponses(contract, (_, res) => {
        const now = new Date(Math.floor(Date.now() / 1000) * 1000);
        const asctime = now.toUTCString().replace(/^(\w{3}), (\d{2}) (\w{3}) (\d{4}) ([\d:]{8}) GMT$/, (_m, d, day, mon, year, time) => `${d} ${mon} ${String(Number(day)).padStart(2, ' ')} ${time} ${year}`);
        return res.status === 200 ? { ...res, headers: { ...res.headers, date: asctime, 'last-modified': now.toUTCString() } } : res;
      }),
  },
];

/**
 * The wire rules' own targets (broken-targets.test.ts: every check has a target only it catches): the `alone` ones, each failing its
 * rule and no other (malformed-requests-refused and connection-semantics-kept are errors: RFC 9112 §3.2, §6.1, §9.6 are MUSTs), and
 * the warning's, Date in RFC 850's obsolete form.
 */
export const WIRE_ALONE_TARGETS: BrokenTarget[] = [
  ...WIRE_BROKEN_TARGETS.filter((t) => t.alone).map((t): BrokenTarget => ({ name: t.name, errors: t.caughtBy, serve: t.serve })),
  {
    name: 'Date in the obsolete RFC 850 form (Saturday, 28-Nov-26 04:30:00 GMT)',
    errors: [],
    warnings: ['http-dates-imf-fixdate'],
    serve: (contract) =>
      breakResponses(contract, (_, res) => {
        const [day, date, month, year, time] = new Date().toUTCString().split(' ');
        const days: Record<string, string> = { Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday', Sun: 'Sunday' };
        return { ...res, headers: { ...res.headers, date: `${days[day!.replace(',', '')]}, ${date}-${month}-${year!.slice(2)} ${time} GMT` } };
      }),
  },
];
