import { decodeForJudging } from './decode-content.ts';
import type { RecordedResponse } from '../../conformance/types.ts';

/** What one answer passed through as: status, headers (lower-case names), body bytes as sent. */
export interface PassedAnswer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/** Reads remembered at most, and the body bytes they hold in all: the memo stays small whatever the traffic. */
const MAX_ENTRIES = 256;
const MAX_BYTES = 8 * 1024 * 1024;

/** The methods that read (RFC 9110 §9.2.1, safe): any other may change what a read answers. */
const SAFE = new Set(['GET', 'HEAD']);

/**
 * Polling is most of a frontend's traffic: the same read, the same answer. An answer that is the
 * same bytes (status, media type, encoding, body) as the last one to the same read (method,
 * target, key) that was judged without findings, with no other request through the proxy between
 * that may have written, is judged the same: the model would learn nothing new from it (its
 * facts, first answers and permissions are already those), and every check of one response
 * would pass again. Error answers are never repeats (an error id must be fresh each time), nor
 * are answers after any unsafe request. Keys are held in memory only, as the judge holds them.
 */
export function createRepeatMemo(): { isRepeat(method: string, target: string, key: string | undefined, answer: PassedAnswer): boolean; judged(method: string, target: string, key: string | undefined, answer: PassedAnswer | undefined): void } {
  const memo = new Map<string, { answer: PassedAnswer; writes: number }>();
  let bytes = 0;
  let writes = 0;
  const id = (method: string, target: string, key: string | undefined) => `${method} ${key === undefined ? '-' : `k${key}`} ${target}`;
  const same = (a: PassedAnswer, b: PassedAnswer) =>
    a.status === b.status && a.headers['content-type'] === b.headers['content-type'] && a.headers['content-encoding'] === b.headers['content-encoding'] && a.bytes.equals(b.bytes);
  return {
    isRepeat(method, target, key, answer) {
      if (!SAFE.has(method) || answer.status < 200 || answer.status > 299) return false;
      const known = memo.get(id(method, target, key));
      return known !== undefined && known.writes === writes && same(known.answer, answer);
    },
    judged(method, target, key, answer) {
      if (!SAFE.has(method)) writes++;
      const name = id(method, target, key);
      const old = memo.get(name);
      if (old) {
        bytes -= old.answer.bytes.length;
        memo.delete(name);
      }
      if (!answer || !SAFE.has(method) || answer.status < 200 || answer.status > 299 || answer.bytes.length > MAX_BYTES / 16) return;
      // A copy: the bytes given may be a slice of a socket's read buffer, which would stay alive with it.
      memo.set(name, { answer: { ...answer, bytes: Buffer.from(answer.bytes) }, writes });
      bytes += answer.bytes.length;
      for (const [oldest, entry] of memo) {
        if (memo.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
        bytes -= entry.answer.bytes.length;
        memo.delete(oldest);
      }
    },
  };
}

/**
 * The answer as the judge and the recorder read it; its body decoded only if one of them reads it.
 * A class, its getter on the prototype: an object literal with a getter of its own per call made
 * V8 promote some 20 KB to the old generation per young collection under load (`--trace-gc-nvp`,
 * `promoted=`; bench/proxy.ts, memory), which grew the young generation and the RSS with it.
 */
class LazyResponse implements RecordedResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly #answer: PassedAnswer;
  readonly #maxBytes: number;
  #body: string | undefined;
  constructor(answer: PassedAnswer, maxBytes: number) {
    this.status = answer.status;
    this.headers = answer.headers;
    this.#answer = answer;
    this.#maxBytes = maxBytes;
  }
  get body(): string {
    if (this.#body === undefined) {
      const decoded = decodeForJudging(this.#answer.bytes, this.#answer.headers['content-encoding'], this.#maxBytes);
      this.#body = typeof decoded === 'string' ? decoded : '';
    }
    return this.#body;
  }
}

export function lazyResponse(answer: PassedAnswer, maxBytes: number): RecordedResponse {
  return new LazyResponse(answer, maxBytes);
}
