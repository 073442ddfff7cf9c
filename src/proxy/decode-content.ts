import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, zstdDecompressSync } from 'node:zlib';

/** Why a body could not be decoded for the judge. */
export interface Undecoded {
  problem: string;
}

/**
 * The body as the judge reads it: the bytes the target sent, their Content-Encoding undone (RFC
 * 9110 §8.4.1: codings listed in the order applied, so undone last first), as UTF-8 text. At most
 * `maxBytes` decoded, so a small body that inflates to gigabytes costs no more than a large one.
 * The client always gets the bytes as sent; this copy is only for judging and recording.
 */
export function decodeForJudging(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): string | Undecoded {
  if (contentEncoding === undefined || bytes.length === 0) return bytes.toString('utf8');
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  let body = bytes;
  for (const coding of codings.reverse()) {
    const options = { maxOutputLength: maxBytes };
    try {
      if (coding === 'gzip' || coding === 'x-gzip') body = gunzipSync(body, options);
      else if (coding === 'br') body = brotliDecompressSync(body, options);
      else if (coding === 'zstd') body = zstdDecompressSync(body, options);
      // "deflate" is the zlib format (RFC 9110 §8.4.1.2); some servers send raw deflate, which browsers also accept.
      else if (coding === 'deflate') body = body[0] !== undefined && (body[0] & 0x0f) === 8 ? inflateSync(body, options) : inflateRawSync(body, options);
      else return { problem: `Content-Encoding ${coding}, which it does not decode` };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') return { problem: `Content-Encoding ${coding} decodes to more than ${maxBytes} bytes, the most it keeps for judging` };
      return { problem: `Content-Encoding ${coding} that does not decode: ${(error as Error).message}` };
    }
  }
  return body.toString('utf8');
}
