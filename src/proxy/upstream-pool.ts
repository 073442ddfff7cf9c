import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** What a socket of the pool tells the exchange that holds it; an idle socket has none. */
export interface SocketUser {
  data(chunk: Buffer): void;
  /** The backend closed its side, or the socket closed (`error` came first if it broke). */
  closed(): void;
  error(error: NodeJS.ErrnoException): void;
  drain(): void;
}

export interface PooledSocket {
  socket: Socket;
  user: SocketUser | undefined;
}

/**
 * A new connection to the backend `target` names (TLS for https:, the scheme's port when none is
 * given), its bytes sent when written, not after Nagle's delay, as node:http's agent does. The
 * pool's sockets and the proxy's CONNECT tunnels (connect-tunnel.ts) both open theirs so.
 */
export function connectToBackend(target: URL): Socket {
  const tls = target.protocol === 'https:';
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (tls ? 443 : 80));
  const socket = tls ? tlsConnect({ host, port, servername: host, ALPNProtocols: ['http/1.1'] }) : netConnect({ host, port });
  socket.setNoDelay(true);
  return socket;
}

/**
 * Kept-alive connections to one backend, for the proxy's own HTTP/1.1 client hop: a socket is
 * handed to one exchange at a time, and given back when its answer ended in a way that leaves the
 * connection usable (RFC 9112 §9.3). Each socket carries one set of listeners for its whole life,
 * which call whichever exchange holds it: no listener is added or removed per request. An idle
 * socket that says anything, or closes, is dropped. At most `maxSockets` are open; an exchange
 * past it waits for one (the proxy sizes it so that none has to, docs/proxy.md, Forwarding).
 */
export class UpstreamPool {
  readonly #target: URL;
  readonly #maxSockets: number;
  readonly #maxIdle: number;
  readonly #idle: PooledSocket[] = [];
  readonly #waiting: { user: SocketUser; then: (pooled: PooledSocket) => void }[] = [];
  #open = 0;
  #closed = false;

  constructor(target: URL, options: { maxSockets: number; maxIdle: number }) {
    this.#target = target;
    this.#maxSockets = options.maxSockets;
    this.#maxIdle = options.maxIdle;
  }

  /** A socket for `user`, now (an idle one, most recently used first, or a new one) or as soon as one is free. */
  acquire(user: SocketUser, then: (pooled: PooledSocket) => void): void {
    const idle = this.#idle.pop();
    if (idle) {
      idle.user = user;
      return then(idle);
    }
    if (this.#open < this.#maxSockets) return then(this.#connect(user));
    this.#waiting.push({ user, then });
  }

  /** Forgets a waiting exchange that no longer wants a socket. */
  cancel(then: (pooled: PooledSocket) => void): void {
    const at = this.#waiting.findIndex((w) => w.then === then);
    if (at >= 0) this.#waiting.splice(at, 1);
  }

  /** Gives a socket back after a complete answer that left the connection usable. */
  release(pooled: PooledSocket): void {
    pooled.user = undefined;
    if (this.#closed || pooled.socket.destroyed) return this.destroy(pooled);
    const next = this.#waiting.shift();
    if (next) {
      pooled.user = next.user;
      return next.then(pooled);
    }
    if (this.#idle.length >= this.#maxIdle) return this.destroy(pooled);
    this.#idle.push(pooled);
  }

  /** Closes a socket that cannot carry another request. */
  destroy(pooled: PooledSocket): void {
    pooled.user = undefined;
    if (!pooled.socket.destroyed) pooled.socket.destroy();
  }

  close(): void {
    this.#closed = true;
    for (const pooled of this.#idle.splice(0)) pooled.socket.destroy();
  }

  #connect(user: SocketUser): PooledSocket {
    const socket = connectToBackend(this.#target);
    const pooled: PooledSocket = { socket, user };
    this.#open++;
    let gone = false;
    const leave = () => {
      if (gone) return;
      gone = true;
      this.#open--;
      const at = this.#idle.indexOf(pooled);
      if (at >= 0) this.#idle.splice(at, 1);
      // A socket freed a place: a waiting exchange gets a new connection.
      const next = this.#closed ? undefined : this.#waiting.shift();
      if (next) next.then(this.#connect(next.user));
    };
    socket.on('data', (chunk: Buffer) => {
      if (pooled.user) pooled.user.data(chunk);
      // Bytes on an idle connection answer nothing that was asked: it is not used again.
      else socket.destroy();
    });
    socket.on('end', () => {
      if (pooled.user) pooled.user.closed();
      else socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => pooled.user?.error(error));
    socket.on('drain', () => pooled.user?.drain());
    socket.on('close', () => {
      leave();
      pooled.user?.closed();
    });
    return pooled;
  }
}
