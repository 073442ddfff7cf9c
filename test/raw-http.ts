import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one request as raw bytes (anything at all: a method Node refuses, a path with odd
 * characters, an unbalanced header) with `connection: close`, and reads the whole answer.
 * Resolves undefined when the server closed without a word (which the hardening tests forbid).
 */
export function rawRequest(port: number, bytes: string, timeoutMs = 5000, host = '127.0.0.1'): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(bytes.slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return resolve(undefined);
      const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]), headers, body: raw.slice(end + 4) });
    });
    socket.write(bytes);
  });
}
