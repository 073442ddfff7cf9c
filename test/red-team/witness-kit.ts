// What the rounds' witnesses (round-N/witnesses.ts) send and check: one request on a connection of its own (or a keep-alive
// agent's), raw bytes on a socket, and the check that throws "witness did not see …". Written once in round fifteen and copied by
// the writers of rounds sixteen and seventeen, who could read only its shape; one copy now.
import { type Agent, type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export interface AskOptions {
  method?: string;
  key?: string;
  headers?: Record<string, string>;
  /** A keep-alive agent, to send several requests on one connection; default: a new connection. */
  agent?: Agent;
}

/** One request, bounded to 3 s; the body undecoded. */
export function ask(base: string, path: string, options: AskOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = options.key;
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method: options.method ?? 'GET', headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.setTimeout(3000, () => req.destroy(new Error(`no answer within 3 s to ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

/** Writes `bytes` on a new connection and returns everything read until the server closes, 400 ms of silence, or 3 s. */
export function raw(base: string, bytes: string): Promise<Buffer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(idle);
      clearTimeout(cap);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const cap = setTimeout(done, 3000);
    socket.on('connect', () => socket.write(Buffer.from(bytes, 'latin1')));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      clearTimeout(idle);
      idle = setTimeout(done, 400);
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (e) => {
      clearTimeout(cap);
      reject(e);
    });
  });
}

export function seen(condition: boolean, what: string): void {
  if (!condition) throw new Error(`witness did not see ${what}`);
}

/** The parsed JSON of a reply, or undefined when it is none. */
export function parsed(reply: Reply): any {
  try {
    return JSON.parse(reply.text);
  } catch {
    return undefined;
  }
}
