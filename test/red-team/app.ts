// A faithful implementation of the three operations, written from spec/openapi.yaml and its
// x-decisions the way an outside team would write its backend: node:http, no framework, nothing
// imported from src/ or conformance/ (the red team must not share the suite's reading of the
// contract). Every red-team target is this app with one part replaced: a defect (broken) or an
// unusual behaviour the contract allows (conformant). Its state comes from the mock's default
// fixtures, so the CLI's own defaults and the README's tokens fit every target.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface FixtureKey {
  key: string;
  permissions: string[];
}
interface FixtureEnvironment {
  name: string;
  type?: string;
  protected?: boolean;
  sortOrder?: number;
}
interface FixtureProjectEnvironment {
  name: string;
  enabled: boolean;
  [field: string]: unknown;
}
interface Fixtures {
  apiKeys: FixtureKey[];
  environments: FixtureEnvironment[];
  projects: { id: string; environments: FixtureProjectEnvironment[] }[];
  oidcSettings: Record<string, unknown>;
  serviceAccounts: { id: string; tokens: { id: string }[] }[];
}

export const FIXTURES = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as Fixtures;

export type OperationId = 'getProjectEnvironments' | 'getOidcSettings' | 'deleteServiceAccountToken';
export const OPERATIONS: readonly OperationId[] = ['getProjectEnvironments', 'getOidcSettings', 'deleteServiceAccountToken'];

/** The fixtures' key with every permission: the CLI's `--api-key`. */
export const FULL_KEY = FIXTURES.apiKeys.find((k) => k.permissions.includes('*'))!.key;
/** The fixtures' key that may read environments only: the CLI's `--restricted-key` (its default `--forbidden` fits it). */
export const RESTRICTED_KEY = FIXTURES.apiKeys.find((k) => !k.permissions.includes('*') && !k.permissions.includes('getOidcSettings'))!.key;
/** The disposable tokens the README's command line gives the suite. */
export const TOKENS = ['1/1', '1/2', '2/4'];

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The serialized body, or undefined for none. */
  body?: string;
}

export interface ApiRequest {
  method: string;
  /** The request target as sent (path and query, still percent-encoded). */
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names as the client wrote them, for targets that read them case-sensitively. */
  rawHeaders: string[];
  socket: Socket;
}

export type Route =
  | { kind: 'operation'; operationId: OperationId; method: 'GET' | 'DELETE'; params: string[] }
  | { kind: 'no-route' };

/** The replaceable parts of the app: each target swaps at most one of them (or wraps `handle`). */
export interface Parts {
  /** The key a request presents in Authorization, or undefined (API §5, decision key-in-header-only). */
  presentedKey(request: ApiRequest): string | undefined;
  /** Whether a path parameter names a stored id (decisions project-id-compared-exactly, token-ids-compared-exactly). */
  sameId(presented: string, stored: string): boolean;
  /** A new error instance id (decision error-ids-unique). */
  errorId(): string;
  /** The `version` of the environments answer (decision environments-version-constant). */
  version(): number;
  /** Which of a project's environment entries are listed (API §4.1: the enabled ones). */
  listed(entry: FixtureProjectEnvironment): boolean;
  /** The message of an error answer (free text, x-per-instance). */
  message(status: number, request: ApiRequest, detail?: string): string;
}

export const ERROR_NAMES: Record<number, string> = { 400: 'ValidationError', 401: 'AuthenticationRequired', 403: 'NoAccessError', 404: 'NotFoundError' };

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'The request data does not match what we expect.',
  401: 'You must provide a valid API key in the Authorization header.',
  403: 'This API key lacks the permission for this operation.',
  404: 'Could not find the requested resource.',
};

export const faithfulParts: Parts = {
  presentedKey(request) {
    const value = request.headers.authorization;
    if (value === undefined) return undefined;
    // RFC 9110 §5.5: spaces and tabs around a field value are not part of it; nothing else is trimmed.
    const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
    // RFC 9110 §11.1: the auth scheme is case-insensitive; `Bearer <key>` is accepted (spec: securitySchemes.apiKey).
    const bearer = /^bearer[ \t]+(.*)$/i.exec(trimmed);
    return bearer ? bearer[1]!.replace(/^[ \t]+/, '') : trimmed;
  },
  sameId: (presented, stored) => presented === stored,
  errorId: () => randomUUID(),
  version: () => 1,
  listed: (entry) => entry.enabled,
  message: (status) => DEFAULT_MESSAGES[status] ?? 'Error',
};

/** The state of one running target: keys, projects, OIDC settings, tokens (a fresh copy of the fixtures). */
export class Store {
  readonly keys = new Map<string, Set<string>>();
  readonly projects = new Map<string, FixtureProjectEnvironment[]>();
  readonly oidc: Record<string, unknown>;
  /** `account/token` of every token that still exists. */
  readonly tokens = new Map<string, Set<string>>();
  readonly instanceEnvironments = new Map<string, FixtureEnvironment>();

  constructor() {
    const fixtures = structuredClone(FIXTURES);
    for (const k of fixtures.apiKeys) this.keys.set(k.key, new Set(k.permissions));
    for (const e of fixtures.environments) this.instanceEnvironments.set(e.name, e);
    for (const p of fixtures.projects) this.projects.set(p.id, p.environments);
    this.oidc = fixtures.oidcSettings;
    for (const a of fixtures.serviceAccounts) this.tokens.set(a.id, new Set(a.tokens.map((t) => t.id)));
  }

  permits(key: string, operationId: OperationId): boolean {
    const permissions = this.keys.get(key);
    return permissions !== undefined && (permissions.has('*') || permissions.has(operationId));
  }

  /** The stored id that `presented` names, under `sameId`. */
  find(ids: Iterable<string>, presented: string, sameId: Parts['sameId']): string | undefined {
    for (const id of ids) if (sameId(presented, id)) return id;
    return undefined;
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

export function errorAnswer(parts: Parts, status: number, request: ApiRequest, detail?: string): Answer {
  return json(status, { id: parts.errorId(), name: ERROR_NAMES[status], message: parts.message(status, request, detail) });
}

const TEMPLATES: { segments: string[]; operationId: OperationId; method: 'GET' | 'DELETE' }[] = [
  { segments: ['api', 'admin', 'environments', 'project', '{}'], operationId: 'getProjectEnvironments', method: 'GET' },
  { segments: ['api', 'admin', 'auth', 'oidc', 'settings'], operationId: 'getOidcSettings', method: 'GET' },
  { segments: ['api', 'admin', 'service-account', '{}', 'token', '{}'], operationId: 'deleteServiceAccountToken', method: 'DELETE' },
];

/** Matches a path (no query) against the spec's three paths; each segment is percent-decoded once (RFC 3986 §2.1). */
export function routeOf(path: string): Route {
  const raw = path.split('/').slice(1);
  let segments: string[];
  try {
    segments = raw.map((s) => decodeURIComponent(s));
  } catch {
    return { kind: 'no-route' };
  }
  for (const t of TEMPLATES) {
    if (t.segments.length !== segments.length) continue;
    const params: string[] = [];
    const fits = t.segments.every((s, i) => {
      if (s === '{}') {
        params.push(segments[i]!);
        return segments[i] !== '';
      }
      return s === segments[i];
    });
    if (fits) return { kind: 'operation', operationId: t.operationId, method: t.method, params };
  }
  return { kind: 'no-route' };
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** The body of the operation's 200, or undefined when the resource does not exist (the lookup). */
export function lookup(store: Store, parts: Parts, operationId: OperationId, params: string[]): { found: boolean; project?: string; account?: string; token?: string } {
  if (operationId === 'getOidcSettings') return { found: true };
  if (operationId === 'getProjectEnvironments') {
    const project = store.find(store.projects.keys(), params[0]!, parts.sameId);
    return project === undefined ? { found: false } : { found: true, project };
  }
  const account = store.find(store.tokens.keys(), params[0]!, parts.sameId);
  const token = account === undefined ? undefined : store.find(store.tokens.get(account)!, params[1]!, parts.sameId);
  return token === undefined ? { found: false } : { found: true, account, token };
}

export function environmentsBody(store: Store, parts: Parts, project: string): unknown {
  const entries = store.projects.get(project)!.filter((e) => parts.listed(e));
  return {
    version: parts.version(),
    environments: entries.map((e) => {
      const instance = store.instanceEnvironments.get(e.name);
      // Instance-wide fields first, then the project's own entry (API §2.1 lists both kinds in one object).
      return { type: instance?.type, protected: instance?.protected, sortOrder: instance?.sortOrder, ...e };
    }),
  };
}

/** Runs the operation on a found resource (the delete happens here). */
export function operate(store: Store, parts: Parts, operationId: OperationId, found: ReturnType<typeof lookup>): Answer {
  if (operationId === 'getProjectEnvironments') return json(200, environmentsBody(store, parts, found.project!));
  if (operationId === 'getOidcSettings') return json(200, store.oidc);
  store.tokens.get(found.account!)!.delete(found.token!);
  return { status: 200, headers: {}, body: undefined };
}

/** The method rule around the operations (decision head-requests): HEAD like GET, OPTIONS 204 with Allow, others 405 with Allow. */
export function methodAnswer(route: Extract<Route, { kind: 'operation' }>, method: string): Answer | undefined {
  if (method === route.method || (method === 'HEAD' && route.method === 'GET')) return undefined;
  const allow = route.method === 'GET' ? 'GET, HEAD, OPTIONS' : 'DELETE, OPTIONS';
  if (method === 'OPTIONS') return { status: 204, headers: { allow }, body: undefined };
  return { status: 405, headers: { allow, 'content-type': 'text/plain; charset=utf-8' }, body: 'Method Not Allowed' };
}

/** The whole faithful flow: route, method, auth (401, then 403), lookup (404), operation. */
export function handle(store: Store, parts: Parts, request: ApiRequest): Answer {
  return afterRoute(store, parts, request, routeOf(pathOf(request.url)));
}

/** The faithful flow once the request is routed (method, 401, 403, 404, operation), for targets that route otherwise. */
export function afterRoute(store: Store, parts: Parts, request: ApiRequest, route: Route): Answer {
  if (route.kind === 'no-route') return errorAnswer(parts, 404, request);
  const byMethod = methodAnswer(route, request.method);
  if (byMethod) return byMethod;
  const key = parts.presentedKey(request);
  if (key === undefined || !store.keys.has(key)) return errorAnswer(parts, 401, request);
  if (!store.permits(key, route.operationId)) return errorAnswer(parts, 403, request);
  const found = lookup(store, parts, route.operationId, route.params);
  if (!found.found) return errorAnswer(parts, 404, request, route.params.join('/'));
  return operate(store, parts, route.operationId, found);
}

export function toApiRequest(req: IncomingMessage): ApiRequest {
  // RFC 9110 §5.3: repeated Authorization lines are one list (node:http keeps only the first); a list is no key (decision malformed-requests).
  const lines = req.rawHeaders.filter((_, i, all) => i % 2 === 1 && all[i - 1]!.toLowerCase() === 'authorization');
  const headers = lines.length > 1 ? { ...req.headers, authorization: lines.join(', ') } : req.headers;
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers, rawHeaders: req.rawHeaders, socket: req.socket };
}

/** Writes an answer the ordinary way: Content-Length in bytes, no body on HEAD (Node drops it), a 204 or 304 as its head alone. */
export function send(res: ServerResponse, answer: Answer): void {
  // RFC 9110 §8.6: no Content-Length in a 204 (the OPTIONS answer), and in a 304 none but the 200's; RFC 9112 §6.3: both end at their head.
  if (answer.status === 204 || answer.status === 304) {
    res.writeHead(answer.status, answer.headers);
    res.end();
    return;
  }
  const body = answer.body === undefined ? undefined : Buffer.from(answer.body);
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(body?.length ?? 0) });
  res.end(body);
}

export interface RunningTarget {
  url: string;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * Serves `handler` on 127.0.0.1, port 0. A handler that throws gets what frameworks send, a 500
 * with a generic JSON body; `onClose` stops timers a target runs.
 */
export async function serve(handler: Handler, configure?: (server: Server) => void, onClose?: () => void): Promise<RunningTarget> {
  const server = createServer((req, res) => {
    req.resume();
    Promise.resolve()
      .then(() => handler(req, res))
      .catch(() => {
        if (!res.headersSent) send(res, json(500, { error: 'Internal Server Error' }));
        else res.destroy();
      });
  });
  configure?.(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        onClose?.();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The faithful app on a fresh store, with `parts` replaced and the answer passed through `after`. */
export function serveApp(options: { parts?: Partial<Parts>; after?: (answer: Answer, request: ApiRequest) => Answer } = {}): Promise<RunningTarget> {
  const store = new Store();
  const parts = { ...faithfulParts, ...options.parts };
  return serve((req, res) => {
    const request = toApiRequest(req);
    const answer = handle(store, parts, request);
    send(res, options.after ? options.after(answer, request) : answer);
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One server of a red-team round. */
export interface RedTeamTarget {
  name: string;
  /** One line: what this server does differently. */
  description: string;
  /** true: a defect the suite must report (exit 1); false: conformant, the suite must pass it (exit 0). */
  broken: boolean;
  start(): Promise<RunningTarget>;
}

export const target = (name: string, broken: boolean, description: string, start: () => Promise<RunningTarget>): RedTeamTarget => ({ name, broken, description, start });

/** A request field's value (the first, where node:http keeps a list). */
export const header = (request: ApiRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
