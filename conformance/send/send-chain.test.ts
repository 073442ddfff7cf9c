import { afterEach, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import type { RunningServer } from '../../src/mock/index.ts';
import { serveSocket, frame } from '../test/serve-socket.ts';
import { sendChain, type RawRequest } from './send-chain.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const get = (path: string, method = 'GET'): RawRequest => ({ method, path, headers: [['host', 'x']] });
const options = { timeoutMs: 2000, maxBodyBytes: 1 << 20 };
const json = (body: string) => ({ status: 200, headers: { 'content-type': 'application/json' }, body });

describe('sendChain: one kept-alive connection, exactly one answer per request', () => {
  it('sends each request on the connection the one before used, and reads Content-Length, chunked and gzip bodies', async () => {
    const sockets: unknown[] = [];
    server = await serveSocket((request) => {
      sockets.push(request.socket);
      if (request.url === '/chunked') return { raw: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n' };
      if (request.url === '/gzip') {
        const body = gzipSync('{"zipped":true}');
        return { raw: `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${body.length}\r\n\r\n${body.toString('latin1')}` };
      }
      return json('{"a":1}');
    });
    const outcomes = await sendChain(new URL(server.url), [get('/one'), get('/chunked'), get('/gzip'), get('/one', 'HEAD')], options);
    expect(outcomes.map((o) => [o.response?.status, o.response?.body, o.fresh])).toEqual([
      [200, '{"a":1}', true],
      [200, 'abcde', false],
      [200, '{"zipped":true}', false],
      [200, '', false],
    ]);
    expect(new Set(sockets).size).toBe(1);
  });

  it('tells bytes beyond an answer (a HEAD answered with a body) on the next request of the connection', async () => {
    server = await serveSocket((request) => (request.method === 'HEAD' ? { raw: frame(json('{"spilled":1}'), false).toString('latin1') } : json('{}')));
    const outcomes = await sendChain(new URL(server.url), [get('/a', 'HEAD'), get('/b')], options);
    expect(outcomes[0]!.response?.status).toBe(200);
    expect(outcomes[1]!.error).toMatch(/13 bytes arrived on the connection before this request was sent/);
  });

  it('goes on on a fresh connection where the server closes after an answer (Connection: close)', async () => {
    server = await serveSocket((request) => {
      setImmediate(() => request.socket.end());
      return { raw: frame({ ...json('{}'), headers: { 'content-type': 'application/json', connection: 'close' } }).toString('latin1') };
    });
    const outcomes = await sendChain(new URL(server.url), [get('/a'), get('/b'), get('/c')], options);
    expect(outcomes.map((o) => [o.response?.status, o.fresh])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
  });

  it('reports a request the server read and dropped right after the answer before it, and sends one again only after the connection sat idle (RFC 9112 §9.3.1)', async () => {
    const counts = new Map<unknown, number>();
    server = await serveSocket((request) => {
      const n = (counts.get(request.socket) ?? 0) + 1;
      counts.set(request.socket, n);
      // The second request on a connection is read and the connection destroyed instead of an answer (a request cap on arrival).
      if (n === 2) return new Promise(() => setTimeout(() => request.socket.destroy(), 30));
      return json('{}');
    });
    const dropped = await sendChain(new URL(server.url), [get('/a'), get('/b')], options);
    expect(dropped.map((o) => [o.response?.status, o.error !== undefined, o.fresh])).toEqual([[200, false, true], [undefined, true, false]]);
  });

  it('gives up on a request at its deadline and says an answer began', async () => {
    server = await serveSocket(() => ({ raw: 'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc' }));
    const [outcome] = await sendChain(new URL(server.url), [get('/slow')], { timeoutMs: 200, maxBodyBytes: 100 });
    expect(outcome).toMatchObject({ timedOut: true, began: true });
  });

  it('calls bytes that are not HTTP what they are', async () => {
    server = await serveSocket(() => ({ raw: 'SSH-2.0-OpenSSH_9.6\r\n\r\n' }));
    const [outcome] = await sendChain(new URL(server.url), [get('/')], options);
    expect(outcome!.error).toMatch(/not an HTTP answer/);
  });
});

describe('sendChain pipelined: every request written at once, the answers read in turn (RFC 9112 §9.3.2)', () => {
  const pipelined = { ...options, pipelined: true };

  it('writes every request before reading, on one connection, and gives each request the answer in its place', async () => {
    const sockets = new Set<unknown>();
    let seen = 0;
    server = await serveSocket((request) => {
      sockets.add(request.socket);
      seen++;
      return json(`{"path":"${request.url}"}`);
    });
    const outcomes = await sendChain(new URL(server.url), [get('/a'), get('/b', 'HEAD'), get('/c')], pipelined);
    expect(outcomes.map((o) => [o.response?.body, o.fresh])).toEqual([['{"path":"/a"}', true], ['', false], ['{"path":"/c"}', false]]);
    expect([sockets.size, seen]).toEqual([1, 3]);
  });

  it('reads answers in the order they come: a server that answers in completion order gives the first request the second answer', async () => {
    server = await serveSocket((request) => {
      setTimeout(() => request.socket.write(frame(json(`{"path":"${request.url}"}`))), request.url === '/slow' ? 30 : 0);
      return { raw: '' };
    });
    const outcomes = await sendChain(new URL(server.url), [get('/slow'), get('/fast')], pipelined);
    expect(outcomes.map((o) => o.response?.body)).toEqual(['{"path":"/fast"}', '{"path":"/slow"}']);
  });

  it('sends the requests a server did not answer again, one at a time, when it closes after the first (no pipelining)', async () => {
    const answered = new WeakSet<object>();
    server = await serveSocket((request) => {
      if (answered.has(request.socket)) return { raw: '' };
      answered.add(request.socket);
      setImmediate(() => request.socket.end());
      return { raw: frame({ ...json(`{"path":"${request.url}"}`), headers: { connection: 'close' } }).toString('latin1') };
    });
    const outcomes = await sendChain(new URL(server.url), [get('/a'), get('/b'), get('/c')], pipelined);
    expect(outcomes.map((o) => [o.response?.body, o.fresh, o.error])).toEqual([
      ['{"path":"/a"}', true, undefined],
      ['{"path":"/b"}', true, undefined],
      ['{"path":"/c"}', true, undefined],
    ]);
  });

  it('calls the requests left unanswered dropped when the server closes after an answer that did not announce it (no Connection: close)', async () => {
    server = await serveSocket((request) => json(`{"path":"${request.url}"}`), { firstRequestPerRead: { announce: false } });
    const outcomes = await sendChain(new URL(server.url), [get('/a'), get('/b'), get('/c')], pipelined);
    expect(outcomes.map((o) => [o.response?.body, o.fresh])).toEqual([['{"path":"/a"}', true], ['{"path":"/b"}', true], ['{"path":"/c"}', true]]);
    expect(outcomes.map((o) => o.pipelineDropped)).toEqual([undefined, expect.stringMatching(/^the connection closed after 1 answer to 3 requests written in one write, and no answer announced it/), outcomes[1]!.pipelineDropped]);
  });

  it('takes an HTTP/1.0 answer without keep-alive, or Connection: close, as announcing the close (RFC 9112 §9.3, §9.6): nothing dropped', async () => {
    for (const raw of ['HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\n{}', 'HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\n{}']) {
      server = await serveSocket((request) => {
        setImmediate(() => request.socket.end());
        return { raw };
      }, { firstRequestPerRead: { announce: false } });
      const outcomes = await sendChain(new URL(server.url), [get('/a'), get('/b')], pipelined);
      expect(outcomes.map((o) => [o.response?.status, o.pipelineDropped])).toEqual([[200, undefined], [200, undefined]]);
      await server.close();
      server = undefined;
    }
  });

  it('reads nothing after an answer that announces the close, as RFC 9112 §9.6 asks (node:http past maxRequestsPerSocket answers the rest 503): the rest goes again', async () => {
    const { createServer } = await import('node:http');
    const node = createServer((req, res) => res.end(`{"path":"${req.url}"}`));
    node.maxRequestsPerSocket = 1;
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    try {
      const outcomes = await sendChain(new URL(`http://127.0.0.1:${(node.address() as { port: number }).port}`), [get('/a'), get('/b'), get('/c')], pipelined);
      // The 503s it writes after the close run nothing: not a request processed after it (processedAfterClose).
      expect(outcomes.map((o) => [o.response?.status, o.response?.body, o.pipelineDropped, o.processedAfterClose])).toEqual([
        [200, '{"path":"/a"}', undefined, undefined],
        [200, '{"path":"/b"}', undefined, undefined],
        [200, '{"path":"/c"}', undefined, undefined],
      ]);
    } finally {
      node.closeAllConnections();
      node.close();
    }
  });

  it('says so when a server announces the close and answers the requests after it all the same (RFC 9112 §9.6), and sends them again', async () => {
    server = await serveSocket((request) => {
      const answer = json(`{"path":"${request.url}"}`);
      return request.url === '/a' ? { ...answer, headers: { ...answer.headers, connection: 'close' } } : answer;
    });
    const outcomes = await sendChain(new URL(server.url), [get('/a'), get('/b'), get('/c')], pipelined);
    expect(outcomes.map((o) => [o.response?.body, o.fresh])).toEqual([['{"path":"/a"}', true], ['{"path":"/b"}', true], ['{"path":"/c"}', true]]);
    expect(outcomes[0]!.processedAfterClose).toBeUndefined();
    expect(outcomes[1]!.processedAfterClose).toBe('the answer to request 1 of 3 announced Connection: close, and 2 answers (200, 200) followed on that connection to the 2 requests written after it');
    expect(outcomes[2]!.processedAfterClose).toBe(outcomes[1]!.processedAfterClose);
  });

  it('sends every request again, one at a time, when pipelined answers break the framing (bytes beyond an answer), and says why', async () => {
    let answers = 0;
    server = await serveSocket((request) => {
      const answer = frame(json(`{"path":"${request.url}"}`)).toString('latin1');
      // The server's first answer carries three bytes more than its Content-Length.
      return { raw: answers++ === 0 ? `${answer}XYZ` : answer };
    });
    const outcomes = await sendChain(new URL(server.url), [get('/a'), get('/b'), get('/c')], pipelined);
    expect(outcomes.map((o) => [o.response?.body, o.fresh])).toEqual([['{"path":"/a"}', true], ['{"path":"/b"}', true], ['{"path":"/c"}', true]]);
    expect(outcomes.every((o) => o.pipelineBroken === outcomes[0]!.pipelineBroken)).toBe(true);
    expect(outcomes[0]!.pipelineBroken).toMatch(/^request 2 of 3: the bytes on the connection are not an HTTP answer/);
  });
});
