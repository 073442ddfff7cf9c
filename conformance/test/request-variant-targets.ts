import { createHash } from 'node:crypto';
import type { MockRequest, MockResponse } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, operationOf } from './serve-target.ts';

/**
 * Red team round nine's request-variant and state principles (issue 18;
 * test/red-team/round-9/BASELINE.md, "principle the suite lacks"), as targets of our own, written
 * before the variants that catch them: the Host header, queries that frameworks read (static-file
 * suffixes, JSONP and format switches, sparse fields, array syntax, `_method`), the proxy's host
 * headers, path spellings with the restricted key, validators sent across resources, and the
 * credentials checked again after the deletes. Each broken one differs from round nine's example
 * of the same principle; each conformant one is a plausible server that a too-strict version of
 * the same probe would accuse.
 */

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const asAdmin = (request: MockRequest): MockRequest => ({ ...request, headers: { ...request.headers, authorization: ADMIN_KEY } });
const headerOf = (request: MockRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
const keyless = (request: MockRequest) => request.headers.authorization === undefined;
/** The query as the target's framework parses it (WHATWG URLSearchParams: `+` is a space, repeated names kept). */
const queryOf = (request: MockRequest) => new URLSearchParams(request.url.split('?')[1] ?? '');
const pathOnly = (request: MockRequest) => request.url.split('?')[0]!;
const tagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
const isJson = (response: MockResponse) => /json/i.test(String(response.headers['content-type'] ?? '')) && response.body !== undefined;

export const REQUEST_VARIANT_BROKEN_TARGETS: InvarianceTarget[] = [
  // The Host header: header text only (the connection still goes to the loopback target).
  {
    name: 'a Host that is a loopback IP literal (127.0.0.1 or [::1], any port) is the ops console: no key needed, acts as the admin',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'auth-missing-rejected'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const host = (headerOf(req, 'host') ?? '').toLowerCase().replace(/:\d+$/, '');
        return (host === '127.0.0.1' || host === '[::1]') && keyless(req) ? mock.handle(asAdmin(req)) : res;
      }),
  },
  // Queries that frameworks read.
  {
    name: 'a query parameter whose value names a versioned asset (`v=app.css`, `x=.js`) marks the request static: auth is skipped',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => ([...queryOf(req).values()].some((value) => /\.(css|js|png|svg|ico|map)$/i.test(value)) && keyless(req) ? mock.handle(asAdmin(req)) : res)),
  },
  {
    name: '`format=xml` or `_format=xml` renders the answer as XML (a content-negotiation override from the query)',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'content-type-conformance', 'response-schema-conformance'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const query = queryOf(req);
        const format = query.get('format') ?? query.get('_format');
        if (format !== 'xml' || !isJson(res)) return res;
        return { ...res, headers: { ...res.headers, 'content-type': 'application/xml; charset=utf-8' }, body: `<?xml version="1.0"?><response><![CDATA[${res.body}]]></response>` };
      }),
  },
  {
    name: '`fields=…` sparse fieldsets (JSON:API style): only the listed top-level members are kept in the answer',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'response-schema-conformance'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const fields = queryOf(req).get('fields');
        if (fields === null || !isJson(res) || res.status !== 200) return res;
        const keep = new Set(fields.split(','));
        const body = JSON.parse(res.body!) as Record<string, unknown>;
        return { ...res, body: JSON.stringify(Object.fromEntries(Object.entries(body).filter(([name]) => keep.has(name)))) };
      }),
  },
  {
    name: 'array syntax in the query (`a[]=1`, qs-style) makes an array that a sanitizer calls .replace() on: 500',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'not-a-server-error', 'status-code-documented'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => ([...queryOf(req).keys()].some((name) => name.endsWith('[]')) ? { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'qs-1', name: 'InternalError', message: 'value.replace is not a function' }) } : res)),
  },
  // `_method` in the query (Laravel, Rails, Symfony's _method on POST).
  {
    name: 'POST with `?_method=DELETE` runs the delete for a valid key with its permission (Laravel): the token is gone though POST changes nothing',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'delete-token-succeeds', 'unlisted-method-rejected', 'bystanders-untouched'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const named = queryOf(req).get('_method');
        return req.method === 'POST' && named?.toUpperCase() === 'DELETE' ? mock.handle({ ...req, method: 'DELETE' }) : res;
      }),
  },
  {
    name: '`_method` read from the query before auth, which is wired to the listed methods only: POST `?_method=GET` without a key answers the read',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'unlisted-method-rejected'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const named = queryOf(req).get('_method');
        return req.method === 'POST' && named?.toUpperCase() === 'GET' ? mock.handle(asAdmin({ ...req, method: 'GET' })) : res;
      }),
  },
  // The proxy's host headers.
  {
    name: 'a canonical-host middleware trusts X-Forwarded-Host (or Forwarded host=) from any client: another host gets a 308 to it',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'redirect-stays-on-origin'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const forwarded = headerOf(req, 'x-forwarded-host') ?? /host="?([^";,]+)/i.exec(headerOf(req, 'forwarded') ?? '')?.[1];
        return forwarded !== undefined && forwarded !== headerOf(req, 'host') ? { status: 308, headers: { location: `http://${headerOf(req, 'host')}${req.url}` }, body: undefined } : res;
      }),
  },
  // Path spellings with the restricted key.
  {
    name: 'the delete path with a trailing slash is routed to the handler past the permission guard: the restricted key deletes a token',
    dimension: 'headers',
    caughtBy: ['restricted-key-forbidden', 'delete-token-succeeds', 'bystanders-untouched'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const path = pathOnly(req);
        if (req.method !== 'DELETE' || !path.endsWith('/') || req.headers.authorization !== VIEWER_KEY) return res;
        return mock.handle(asAdmin({ ...req, url: path.slice(0, -1) }));
      }),
  },
  // Validators across resources.
  {
    name: 'the conditional layer keys its tags by route template, not URL: a tag of one project\'s environments gets 304 on another project',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => {
      const issued = new Map<string, Set<string>>();
      return breakResponses(contract, (req, res) => {
        const operation = operationOf(contract, req);
        if (req.method !== 'GET' || operation === undefined || res.status !== 200 || res.body === undefined) return res;
        const tag = tagOf(res.body);
        const tags = issued.get(operation) ?? new Set<string>();
        issued.set(operation, tags.add(tag));
        const asked = headerOf(req, 'if-none-match');
        if (asked !== undefined && asked.split(',').some((t) => tags.has(t.trim()))) return { status: 304, headers: { etag: tag }, body: undefined };
        return { ...res, headers: { ...res.headers, etag: tag } };
      });
    },
  },
  // State after the deletes: the credentials are checked again.
  {
    name: 'after the first successful delete the restricted key is re-read from a role table the delete rewrote: it gets every permission (the OIDC secret)',
    dimension: 'earlier',
    caughtBy: ['restricted-key-forbidden'],
    serve: (contract) => {
      let deleted = false;
      return breakResponses(contract, (req, res, mock) => {
        if (req.method === 'DELETE' && res.status === 200) deleted = true;
        return deleted && req.method === 'GET' && req.headers.authorization === VIEWER_KEY && res.status === 403 ? mock.handle(asAdmin(req)) : res;
      });
    },
  },
];

/** A global data revision: every read carries it as a weak tag (RFC 9110 §8.8.3), unchanged while nothing is written. */
const REVISION_TAG = 'W/"rev-1"';

export const REQUEST_VARIANT_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'a Host allowlist (DNS-rebinding guard): 421 to a Host that does not name this server, every loopback name (localhost, 127.0.0.1, [::1], any port) served as usual',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const host = (headerOf(req, 'host') ?? '').toLowerCase().replace(/:\d+$/, '');
        return ['localhost', '127.0.0.1', '[::1]'].includes(host) ? res : { status: 421, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'host-1', name: 'MisdirectedRequest', message: 'unknown host' }) };
      }),
  },
  {
    // Django's ALLOWED_HOSTS, Rails' host authorization, a strict DNS-rebinding guard: only the Host the client was given.
    name: 'a strict Host allowlist: only the exact host and port of the base URL; any other Host gets 400 in plain text (Django) or 421, before auth',
    serve: async (contract) => {
      let own = '';
      const server = await breakResponses(contract, (req, res) => {
        const host = (headerOf(req, 'host') ?? '').toLowerCase();
        if (host === own) return res;
        return host.startsWith('[') ? { status: 421, headers: { 'content-type': 'text/plain' }, body: 'Misdirected Request' } : { status: 400, headers: { 'content-type': 'text/html' }, body: '<h1>Bad Request (400)</h1>' };
      });
      own = new URL(server.url).host;
      return server;
    },
  },
  {
    name: '`pretty` in the query indents the JSON (same media type, same values)',
    serve: (contract) => breakResponses(contract, (req, res) => (queryOf(req).has('pretty') && isJson(res) ? { ...res, body: JSON.stringify(JSON.parse(res.body!), null, 2) } : res)),
  },
  {
    name: 'one global revision as the weak ETag of every read, and 304 to it on any read after auth (RFC 9110 §8.8.3: nothing changed since)',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        if (req.method !== 'GET' || res.status !== 200) return res;
        if (headerOf(req, 'if-none-match')?.split(',').some((t) => t.trim().replace(/^W\//, '') === REVISION_TAG.slice(2))) return { status: 304, headers: { etag: REVISION_TAG }, body: undefined };
        return { ...res, headers: { ...res.headers, etag: REVISION_TAG } };
      }),
  },
  {
    name: 'a path with a trailing slash is redirected (308) to the path without it, before auth, whoever asks (decision trailing-slash)',
    serve: (contract) =>
      breakResponses(contract, (req, res) => {
        const path = pathOnly(req);
        if (!path.endsWith('/') || path === '/') return res;
        const query = req.url.slice(path.length);
        return operationOf(contract, { ...req, url: path.slice(0, -1) }) !== undefined ? { status: 308, headers: { location: `${path.slice(0, -1)}${query}` }, body: undefined } : res;
      }),
  },
  {
    name: 'a path with a trailing slash served as the operation, auth and permission included (403 for the restricted key)',
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const path = pathOnly(req);
        if (!path.endsWith('/') || path === '/') return res;
        const plain = { ...req, url: `${path.slice(0, -1)}${req.url.slice(path.length)}` };
        return operationOf(contract, plain) !== undefined ? mock.handle(plain) : res;
      }),
  },
];
