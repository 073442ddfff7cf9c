import { isIP } from 'node:net';
import { DEFAULT_LIMITS, DEFAULT_MAX_RULES, DEFAULT_MAX_SESSIONS, type ConnectionLimits } from '../mock/index.ts';
import { LOG_FORMATS, type LogFormat } from './access-log.ts';
import { UsageError } from './io.ts';
import { parseFlags } from './parse-flags.ts';

/** The flags flag-admin mock and flag-admin proxy share: where to listen, CORS, the control API, the log, limits. */
export const SERVER_FLAGS_USAGE = `  -p, --port PORT          port to listen on; 0 picks a free one    (default 4010)
  --host HOST              interface to bind: an address or a name  (default 127.0.0.1)
  --cors-origin ORIGIN     allow browser calls from this origin only; repeatable
                                                                    (default: any origin)
  --no-cors                no CORS headers; preflights not answered (the mock: 405; the
                           proxy: on its /__mock/ routes, it forwards the backend's as sent)
  --control-token TOKEN    open the control API (/__mock/) to callers sending this token in
                           X-Mock-Control-Token, and only to them   (default: loopback callers only;
                                                                    env FLAG_ADMIN_MOCK_CONTROL_TOKEN)
  --allowed-host NAME      also answer the control API (/__mock/) and pre-fill the docs' key for
                           requests addressed to this host name; repeatable (default: only
                           localhost, *.localhost, 127.0.0.1, [::1] and --host; others get 403)
  --log-format text|json   access log lines as text or one JSON object each (default text)
  -q, --quiet              no access log

Limits on clients (so idle, slow or endless ones cannot starve the others):
  --max-connections N      open connections; past it the oldest idle ones are closed
                                                                    (default ${DEFAULT_LIMITS.maxConnections})
  --headers-timeout MS     a request's headers must arrive within this, else 408
                                                                    (default ${DEFAULT_LIMITS.headersTimeoutMs})
  --request-timeout MS     a whole request must arrive within this, else 408
                                                                    (default ${DEFAULT_LIMITS.requestTimeoutMs})
  --keep-alive-timeout MS  an idle kept-alive connection is closed after this
                                                                    (default ${DEFAULT_LIMITS.keepAliveTimeoutMs})
  --max-body-bytes N       request body cap: a larger declared one gets 413, a longer one is cut off
                                                                    (default ${DEFAULT_LIMITS.maxBodyBytes})
`;

export const MOCK_USAGE = `Usage: flag-admin mock [-p 4010] [--host 127.0.0.1] [--fixtures FILE [--watch]] [options]

  --fixtures FILE          initial state, JSON (see fixtures/fixture.schema.json)
                                                                    (default: the embedded fixtures/default.json)
  -w, --watch              reload --fixtures when the file changes; a broken edit is reported
                           and the last good state stays served
  --max-sessions N         X-Mock-Session sessions kept, least recently used dropped
                                                                    (default ${DEFAULT_MAX_SESSIONS})
  --max-rules N            sticky rules (POST /__mock/rules) one session holds; one more gets 409
                                                                    (default ${DEFAULT_MAX_RULES})
${SERVER_FLAGS_USAGE}`;

/** The limit flags, by option name of ConnectionLimits. */
const LIMIT_FLAGS = {
  'max-connections': 'maxConnections',
  'headers-timeout': 'headersTimeoutMs',
  'request-timeout': 'requestTimeoutMs',
  'keep-alive-timeout': 'keepAliveTimeoutMs',
  'max-body-bytes': 'maxBodyBytes',
} as const satisfies Record<string, keyof ConnectionLimits>;

/** What the flags both servers take say. */
export interface ServerArgs {
  port: number;
  host: string;
  quiet: boolean;
  logFormat: LogFormat;
  cors: false | { origins: string[] };
  controlToken: string | undefined;
  allowedHosts: string[];
  limits: ConnectionLimits;
}

export interface MockArgs extends ServerArgs {
  fixtures: string | undefined;
  watch: boolean;
  maxSessions: number;
  maxRules: number;
}

/** A host name as RFC 1123 §2.1 allows one: letters, digits, hyphens, dot-separated labels. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The parseArgs options of the shared flags. */
export const SERVER_FLAGS = {
  port: { type: 'string' as const, short: 'p', default: '4010' },
  host: { type: 'string' as const, default: '127.0.0.1' },
  quiet: { type: 'boolean' as const, short: 'q', default: false },
  'log-format': { type: 'string' as const, default: 'text' },
  'cors-origin': { type: 'string' as const, multiple: true as const, default: [] as string[] },
  'no-cors': { type: 'boolean' as const, default: false },
  'control-token': { type: 'string' as const },
  'allowed-host': { type: 'string' as const, multiple: true as const, default: [] as string[] },
  ...(Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, { type: 'string' as const }])) as Record<keyof typeof LIMIT_FLAGS, { type: 'string' }>),
} satisfies NonNullable<Parameters<typeof parseFlags>[1]>;

export function parseMockArgs(argv: string[], env: Record<string, string | undefined>): MockArgs {
  const { values } = parseFlags(argv, {
    ...SERVER_FLAGS,
    fixtures: { type: 'string' },
    watch: { type: 'boolean', short: 'w', default: false },
    'max-sessions': { type: 'string', default: String(DEFAULT_MAX_SESSIONS) },
    'max-rules': { type: 'string', default: String(DEFAULT_MAX_RULES) },
  });
  const server = serverArgs(values, env);
  const maxSessions = countFlag('max-sessions', values['max-sessions']);
  const maxRules = countFlag('max-rules', values['max-rules']);
  if (values.watch && values.fixtures === undefined) throw new UsageError('--watch needs --fixtures FILE: the embedded state does not change');
  return { ...server, fixtures: values.fixtures, watch: values.watch, maxSessions, maxRules };
}

/** Checks and converts the shared flags' values. */
export function serverArgs(
  values: { port: string; host: string; quiet: boolean; 'log-format': string; 'cors-origin': string[]; 'no-cors': boolean; 'control-token'?: string | undefined; 'allowed-host': string[] },
  env: Record<string, string | undefined>,
): ServerArgs {
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
    throw new UsageError(`--port expects an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  }
  // Checked here, not by listen(): a URL or a typo there ends in a resolver error and a stack trace.
  if (isIP(values.host) === 0 && !HOST_NAME.test(values.host)) {
    throw new UsageError(`--host expects an interface address or host name such as 127.0.0.1, ::1, 0.0.0.0 or localhost, got ${JSON.stringify(values.host)}`);
  }
  const origins = values['cors-origin'];
  for (const origin of origins) {
    // An origin is scheme://host[:port] exactly as a browser sends it in the Origin header (RFC 6454 §6.1).
    if (originOf(origin) !== origin) throw new UsageError(`--cors-origin expects an origin such as http://localhost:8000 (no path, no trailing slash), got ${JSON.stringify(origin)}`);
  }
  if (values['no-cors'] && origins.length > 0) throw new UsageError('--no-cors and --cors-origin contradict each other; give one');
  if (!LOG_FORMATS.includes(values['log-format'] as LogFormat)) {
    throw new UsageError(`--log-format expects ${LOG_FORMATS.join(' or ')}, got ${JSON.stringify(values['log-format'])}`);
  }
  const controlToken = values['control-token'] ?? env.FLAG_ADMIN_MOCK_CONTROL_TOKEN;
  if (controlToken === '') throw new UsageError('--control-token expects a non-empty token');
  for (const host of values['allowed-host']) {
    // A name as a browser puts it in Host: no scheme, no port, no path.
    if (isIP(host) === 0 && !HOST_NAME.test(host)) throw new UsageError(`--allowed-host expects a host name or address such as mock.internal or 192.0.2.10 (no scheme, no port), got ${JSON.stringify(host)}`);
  }
  return {
    port: Number(values.port),
    host: values.host,
    quiet: values.quiet,
    logFormat: values['log-format'] as LogFormat,
    cors: values['no-cors'] ? false : { origins },
    controlToken,
    allowedHosts: values['allowed-host'],
    limits: parseLimits(values as Record<string, unknown>),
  };
}

/** A bound on things a client makes (sessions, rules): at least one, and never unbounded. */
function countFlag(flag: string, value: string): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1) throw new UsageError(`--${flag} expects an integer from 1 to 999999, got ${JSON.stringify(value)}`);
  return Number(value);
}

function parseLimits(values: Record<string, unknown>): ConnectionLimits {
  const limits: ConnectionLimits = {};
  for (const [flag, key] of Object.entries(LIMIT_FLAGS)) {
    const value = values[flag];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^\d{1,10}$/.test(value) || Number(value) < 1) throw new UsageError(`--${flag} expects a positive integer, got ${JSON.stringify(value)}`);
    limits[key] = Number(value);
  }
  return limits;
}

function originOf(text: string): string | undefined {
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}
