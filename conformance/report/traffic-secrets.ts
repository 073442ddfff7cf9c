import type { Contract } from '../../src/contract/index.ts';
import { loggableTarget } from '../../src/mock/core/loggable-target.ts';
import { KEY_PARAMETER_NAMES } from '../plan/near-miss/key-near-misses.ts';
import { secretsSeen } from '../judge/secrets-seen.ts';
import { createRedactor, type Redact } from './secret-redactor.ts';
import type { Exchange, RecordedResponse } from '../types.ts';

/** A request as it came off the wire: its target and headers (names in lower case, as node:http gives them). */
export interface WireRequest {
  url: string;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The header lines as sent (node:http's flat `rawHeaders`), when the caller has them: node:http's
   * `headers` keeps only the first of repeated Authorization lines, and every line a client sent
   * went on to the backend, so every one of them is a key the traffic carried.
   */
  rawHeaders?: readonly string[];
}

/**
 * Every secret a stream of traffic carried, and the one redactor over them (DESIGN.md, "One
 * redaction for every output"). Whoever writes what came off the wire (the proxy's journal,
 * access log, dashboard and reports; a recording) learns each request and response here and
 * passes every text it writes through `redact`, and every request target through `target`.
 */
export interface TrafficSecrets {
  /** Learns the keys a request carries: the auth headers' values (and the key after a scheme), and query parameters and cookies under a name keys go by. */
  learnRequest(request: WireRequest): void;
  /** Learns the `format: password` values a response body holds (the OIDC secret). */
  learnResponse(response: RecordedResponse): void;
  /** Redacts every secret learned so far, in every form the redactor reads (conformance/report/secret-redactor.ts). */
  redact: Redact;
  /**
   * A request target with what is cheap to find masked: userinfo, a query value under a key's name or
   * holding a key as sent or percent-decoded, a path segment that is a key. What the journal stores
   * (it redacts on reading); an output written at once (the access log) passes it through `redact`.
   */
  mask(url: string): string;
  /** `redact(mask(url))`: a request target fit to show, no secret in any form left. About 0.2 ms per distinct target (cached). */
  target(url: string): string;
  /** The keys learned, oldest first (never to be written anywhere). */
  keys(): string[];
  /** The first key a request carries in a query parameter or a cookie under a key's name (the proxy's curl lines send it there from a variable). */
  placedKey(request: WireRequest): PlacedKey | undefined;
}

/** A key sent where the spec does not read one: a query parameter or a cookie, by name. */
export interface PlacedKey {
  in: 'query' | 'cookie';
  name: string;
  value: string;
}

/**
 * Names a query parameter or cookie carries a key under, besides the spec's auth headers: those
 * the suite's near-misses send keys in (apiKey, api_key, token, access_token), and the common
 * shapes of credential names (`key`, `x-api-key`, `client_secret`, `password`, `sig`, `session_id`, `PHPSESSID`...).
 */
const CREDENTIAL_NAME = /^(?:.*[-_.])?(?:api[-_]?key|apikey|key|token|access[-_]?token|refresh[-_]?token|id[-_]?token|secret|client[-_]?secret|password|passwd|pwd|pass|auth|authorization|bearer|credentials?|session|session[-_]?id|sess(?:ion)?[-_]?token|(?:php|j)?sessid|jsessionid|sid|sig|signature)$/i;
/** Shorter values under a credential's name are not taken for keys (`?token=1`): they would redact every `1`. */
const MIN_NAMED_VALUE = 4;
/** Secrets remembered at most (the least recently seen go first): a client's keys are few. */
const MAX_SECRETS = 256;

export function createTrafficSecrets(options: { contract: Contract; authHeaders: readonly string[] }): TrafficSecrets {
  const { contract } = options;
  const authHeaders = options.authHeaders.map((h) => h.toLowerCase());
  const isCredentialName = credentialNameTest(authHeaders);
  const secrets = new Map<string, 'key' | 'value'>();
  let version = 0;
  let built = -1;
  let redactor: Redact = (text) => text;

  const add = (value: string, kind: 'key' | 'value') => {
    if (value.trim() === '') return;
    if (secrets.delete(value)) return void secrets.set(value, kind);
    secrets.set(value, kind);
    version++;
    if (secrets.size > MAX_SECRETS) secrets.delete(secrets.keys().next().value!);
  };
  const addKey = (value: string) => {
    add(value, 'key');
    // `Bearer KEY`, `ApiKey KEY`: the key after a scheme (RFC 9110 §11.4) is the same key.
    const scheme = /^[A-Za-z][A-Za-z0-9._~+-]*[ \t]+(\S.*)$/.exec(value.trim());
    if (scheme) add(scheme[1]!.trim(), 'key');
  };
  // A scan per known secret (at most MAX_SECRETS), not the redactor's views: this runs on every request.
  const mask = (url: string) => loggableTarget(url, { holdsKey: (text) => [...secrets.keys()].some((secret) => text.includes(secret)), isKey: (text) => secrets.has(text) }, isCredentialName);
  const redact: Redact = (text) => {
    if (built !== version) {
      redactor = createRedactor(secrets.keys());
      built = version;
    }
    return redactor(text);
  };

  const placed = (request: WireRequest) => keysPlacedIn(request, isCredentialName);

  return {
    placedKey: (request) => placed(request)[0],
    learnRequest(request) {
      const raw = request.rawHeaders;
      // Every value of every line of an auth header, all repeats, any case of its name (RFC 9110 §5.1, §5.3).
      if (raw !== undefined) {
        for (let i = 0; i < raw.length; i += 2) if (authHeaders.includes(raw[i]!.toLowerCase())) addKey(raw[i + 1]!);
      } else
        for (const name of authHeaders) {
          const value = request.headers[name];
          for (const one of typeof value === 'string' ? [value] : (value ?? [])) addKey(one);
        }
      for (const { value } of placed(request)) addKey(value);
    },
    learnResponse(response) {
      for (const value of secretsSeen([{ response } as Exchange], contract.secretProperties)) add(value, 'value');
    },
    redact,
    mask,
    target: (url) => redact(mask(url)),
    keys: () => [...secrets].filter(([, kind]) => kind === 'key').map(([value]) => value),
  };
}

/** Whether a query parameter or cookie name is one keys go by: an auth header's name, a near-miss name, or a credential's shape. */
function credentialNameTest(authHeaders: readonly string[]): (name: string) => boolean {
  const named = new Set([...authHeaders.map((h) => h.toLowerCase()), ...KEY_PARAMETER_NAMES.map((n) => n.toLowerCase())]);
  return (name) => named.has(name.toLowerCase()) || CREDENTIAL_NAME.test(name);
}

/**
 * Every value a request carries under a key's name in its query (name as sent, decoded) and its
 * cookies, in order: what the proxy's redaction learns and the recorder keeps out of a recording,
 * by one definition. `authHeaders` (or a name test built from them) adds the spec's own names.
 */
export function keysPlacedIn(request: WireRequest, authHeaders: readonly string[] | ((name: string) => boolean)): PlacedKey[] {
  const isCredentialName = typeof authHeaders === 'function' ? authHeaders : credentialNameTest(authHeaders);
  const found: PlacedKey[] = [];
  const query = request.url.indexOf('?');
  if (query >= 0) {
    for (const part of request.url.slice(query + 1).split('#')[0]!.split('&')) {
      const equals = part.indexOf('=');
      if (equals < 0) continue;
      const name = decoded(part.slice(0, equals));
      const value = decoded(part.slice(equals + 1));
      if (isCredentialName(name) && value.length >= MIN_NAMED_VALUE) found.push({ in: 'query', name, value });
    }
  }
  const cookies = request.headers.cookie;
  for (const header of typeof cookies === 'string' ? [cookies] : (cookies ?? [])) {
    for (const pair of header.split(';')) {
      const equals = pair.indexOf('=');
      if (equals < 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = decoded(pair.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1'));
      if (isCredentialName(name) && value.length >= MIN_NAMED_VALUE) found.push({ in: 'cookie', name, value });
    }
  }
  return found;
}

/** Percent-decoded, `+` as a space (a query component as a form decoder reads it); malformed escapes stay as sent. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}
