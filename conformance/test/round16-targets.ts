import type { MockRequest, MockResponse } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, operationOf } from './serve-target.ts';
import { byteTarget, rfcRanges } from './round12-request-targets.ts';
import { GET_OIDC_SETTINGS } from '../operation-ids.ts';

/**
 * Red team round sixteen's principles (issue 18; test/red-team/round-16/BASELINE.md), as other stacks break them, not round
 * sixteen's own targets (`CDN-Cache-Control: public, max-age=300`; a suffix range read as a prefix):
 * - shared caches, whatever field tells them: a CDN obeys the field that targets it in Cache-Control's place (RFC 9213 §2.1:
 *   `CDN-Cache-Control` and the `<vendor>-CDN-Cache-Control` family; Fastly's and Varnish's `Surrogate-Control`; Akamai's
 *   `Edge-Control`), so an answer to a keyed request made storable there is handed to requests without a key (spec decision
 *   shared-caches). Such a field addresses shared caches only: its `max-age` is the CDN's own time to keep the answer.
 * - a 206 carries the bytes asked for (RFC 9110 §14.1.2: `bytes=-N` is the last N bytes, `bytes=N-` from N to the end, a last-pos
 *   past the end is the end; §15.3.7.2: several ranges in one part only by coalescing them, and never a multipart answer to one
 *   range), in the forms real clients send (a suffix for a file's tail, an open range to resume).
 */

const isRead = (request: MockRequest, response: MockResponse) => (request.method === 'GET' || request.method === 'HEAD') && response.status === 200;
const keyed = (request: MockRequest) => String(request.headers.authorization ?? '').trim() !== '';
const withHeaders = (response: MockResponse, headers: Record<string, string>): MockResponse => ({ ...response, headers: { ...response.headers, ...headers } });

export const ROUND16_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    // fastly-rails / a Varnish setup: the browser kept out by Cache-Control, the edge told to keep the answer by Surrogate-Control.
    name: 'keyed reads answered `Cache-Control: private, no-store` for the browser and `Surrogate-Control: max-age=600` for the edge (Fastly and Varnish prefer Surrogate-Control): the edge keeps the answers, the OIDC secret included',
    dimension: 'headers',
    caughtBy: ['shared-caches-kept-out'],
    serve: (contract) => breakResponses(contract, (request, response) => (isRead(request, response) ? withHeaders(response, { 'cache-control': 'private, no-store', 'surrogate-control': 'max-age=600' }) : response)),
  },
  {
    // A Next.js route handler for the settings page: Vercel's own targeted field, max-age alone (no `public`), no Cache-Control at all.
    name: 'the OIDC settings read answered `Vercel-CDN-Cache-Control: max-age=60, stale-while-revalidate=300` and no Cache-Control (RFC 9213: the Vercel edge obeys it, browsers never see it)',
    dimension: 'headers',
    caughtBy: ['shared-caches-kept-out'],
    serve: (contract) => breakResponses(contract, (request, response) => (isRead(request, response) && operationOf(contract, request) === GET_OIDC_SETTINGS ? withHeaders(response, { 'vercel-cdn-cache-control': 'max-age=60, stale-while-revalidate=300' }) : response)),
  },
  {
    // Akamai's Edge-Control: `!no-store` overrides the origin's no-store at the edge, cache-maxage sets how long it keeps the answer.
    name: 'every keyed answer `Cache-Control: no-store` with `Edge-Control: !no-store, cache-maxage=5m` (an Akamai rule that caches API errors and reads at the edge alike)',
    dimension: 'headers',
    caughtBy: ['shared-caches-kept-out'],
    serve: (contract) => breakResponses(contract, (request, response) => (keyed(request) && request.method !== 'DELETE' ? withHeaders(response, { 'cache-control': 'no-store', 'edge-control': '!no-store, cache-maxage=5m' }) : response)),
  },
  {
    // A streaming handler's `const end = parts[1] ? parseInt(parts[1], 10) : size`: the open range's last byte one past the end.
    name: 'an open range `bytes=N-` answered 206 with `Content-Range: bytes N-len/len` (the end taken as the length), its bytes N to the end',
    dimension: 'headers',
    caughtBy: ['range-requests'],
    serve: (contract) =>
      byteTarget(contract, (request, response) =>
        rfcRanges(request, response, { contentRange: ([first, last], length, spec) => `bytes ${first}-${spec.trim().endsWith('-') ? length : last}/${length}` }),
      ),
  },
  {
    // `length - n - 1` for a suffix: one byte too many, said consistently in the Content-Range, alone or as a part of several.
    name: 'a suffix range `bytes=-N` answered with the last N+1 bytes (first-pos computed as length-N-1), its Content-Range saying so, alone and as a part of multipart/byteranges',
    dimension: 'headers',
    caughtBy: ['range-requests'],
    serve: (contract) =>
      byteTarget(contract, (request, response) =>
        rfcRanges(request, response, {
          resolve: (spec, length) => {
            const match = /^(\d*)-(\d*)$/.exec(spec.trim());
            if (!match) return undefined;
            if (match[1] === '') return Number(match[2]) === 0 ? undefined : [Math.max(0, length - Number(match[2]) - 1), length - 1];
            const first = Number(match[1]);
            const last = match[2] === '' ? length - 1 : Math.min(Number(match[2]), length - 1);
            return first >= length ? undefined : [first, last];
          },
        }),
      ),
  },
  {
    // A writer that always builds multipart/byteranges (one part for one range): a client that asked for one range reads the
    // boundary lines as the representation's bytes (RFC 9110 §15.3.7.2: MUST NOT).
    name: 'every 206 a multipart/byteranges, a single range too (one part with its Content-Range)',
    dimension: 'headers',
    caughtBy: ['range-requests'],
    serve: (contract) => byteTarget(contract, (request, response) => rfcRanges(request, response, { alwaysMultipart: true })),
  },
];

export const ROUND16_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // The CDN told to keep nothing keyed in its own fields too; Cache-Control's private keeps the other shared caches out.
    name: 'keyed answers `Cache-Control: private, max-age=30` with `CDN-Cache-Control: no-store`, `Netlify-CDN-Cache-Control: private` and `Surrogate-Control: max-age=0`',
    serve: (contract) =>
      breakResponses(contract, (request, response) =>
        keyed(request) ? withHeaders(response, { 'cache-control': 'private, max-age=30', 'cdn-cache-control': 'no-store', 'netlify-cdn-cache-control': 'private', 'surrogate-control': 'max-age=0' }) : response,
      ),
  },
  {
    // A CDN absorbing keyless floods: only answers to requests that carry no key are made storable at the edge (decision shared-caches
    // is about answers to keyed requests); keyed ones say `no-cache` to the CDN (store, but ask the origin, with the key, every time).
    name: '`Cloudflare-CDN-Cache-Control: public, max-age=30` and `Vary: Authorization` on the 401s to requests without a key, `Cloudflare-CDN-Cache-Control: no-cache, must-revalidate` on keyed answers',
    serve: (contract) =>
      breakResponses(contract, (request, response) =>
        keyed(request)
          ? withHeaders(response, { 'cloudflare-cdn-cache-control': 'no-cache, must-revalidate' })
          : withHeaders(response, { 'cloudflare-cdn-cache-control': 'public, max-age=30', vary: 'Authorization' }),
      ),
  },
  {
    // Express `send` with range-parser's `combine`: overlapping and adjacent ranges merged, a set that stays several ignored (200);
    // a suffix longer than the representation is all of it (RFC 9110 §14.1.2), a 206 `bytes 0-(len-1)/len`.
    name: 'Range as Express `send` answers it: one range (after combining overlapping and adjacent ones) a 206, several the 200, a suffix past the start the whole as a 206',
    serve: (contract) => byteTarget(contract, (request, response) => rfcRanges(request, response, { combineOrIgnore: true })),
  },
  {
    // A streaming handler with a fixed chunk: a 206 never longer than 16 bytes, from the first byte asked (RFC 9110 §15.3.7: a server
    // may send a subset of what was asked, the 206 says which), several ranges as multipart with each part so capped.
    name: 'Range honoured 16 bytes at a time: each part from the first byte asked, at most 16 bytes, its Content-Range saying which',
    serve: (contract) => byteTarget(contract, (request, response) => rfcRanges(request, response, { cap: 16 })),
  },
];
