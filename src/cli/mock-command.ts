import { relative } from 'node:path';
import { ContractError } from '../contract/index.ts';
import { DEFAULT_FIXTURES_FILE, startMock, type MockState } from '../mock/index.ts';
import { UsageError, usageFailure, type CommandIo } from './io.ts';
import { parseFlags } from './parse-flags.ts';

export const MOCK_USAGE = `Usage: flag-admin mock [-p 4010] [--host 127.0.0.1] [--fixtures FILE] [options]

  -p, --port PORT          port to listen on; 0 picks a free one    (default 4010)
  --host HOST              interface to bind                        (default 127.0.0.1)
  --fixtures FILE          initial state, JSON (see fixtures/fixture.schema.json)
                                                                    (default: the embedded fixtures/default.json)
  --cors-origin ORIGIN     allow browser calls from this origin only; repeatable
                                                                    (default: any origin)
  --no-cors                no CORS headers, preflights answered 405
  -q, --quiet              no access log
`;

/**
 * Serves the mock until SIGINT or SIGTERM, then closes it and resolves to 0. Bad flags: usage
 * and 2; a bad fixture: its file, JSON pointer and expectation, and 2.
 */
export async function mockCommand(argv: string[], io: CommandIo): Promise<number> {
  let options: MockArgs;
  try {
    options = parseMockArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure('mock', error.message, io);
  }

  const fixturesFile = options.fixtures ?? DEFAULT_FIXTURES_FILE;
  let mock;
  try {
    // startMock checks the fixtures before it listens: a bad one never opens the port.
    mock = await startMock({
      fixtures: fixturesFile,
      port: options.port,
      host: options.host,
      cors: options.cors,
      onResponse: options.quiet ? undefined : ({ method, url, status, ms }) => io.stdout(`${method} ${url} ${status} ${ms.toFixed(1)}ms\n`),
      onError: (error) => io.stderr(`flag-admin mock: internal error: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  } catch (error) {
    if (error instanceof ContractError) {
      io.stderr(`flag-admin mock: bad fixtures: ${error.message}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      io.stderr(`flag-admin mock: cannot listen on ${options.host}:${options.port} (${code}); choose another with --port (0 picks a free one) or --host\n`);
      return 1;
    }
    throw error;
  }

  io.stdout(startBanner(mock.url, fixturesFile, mock.store.snapshot(), options.fixtures === undefined));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await mock.close();
  io.stdout('flag-admin mock stopped\n');
  return 0;
}

interface MockArgs {
  port: number;
  host: string;
  fixtures: string | undefined;
  quiet: boolean;
  cors: false | { origins: string[] };
}

function parseMockArgs(argv: string[]): MockArgs {
  const { values } = parseFlags(argv, {
    port: { type: 'string', short: 'p', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    fixtures: { type: 'string' },
    quiet: { type: 'boolean', short: 'q', default: false },
    'cors-origin': { type: 'string', multiple: true, default: [] },
    'no-cors': { type: 'boolean', default: false },
  });
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
    throw new UsageError(`--port expects an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  }
  if (values.host === '') throw new UsageError('--host expects an interface name or address, got ""');
  const origins = values['cors-origin'];
  for (const origin of origins) {
    // An origin is scheme://host[:port] exactly as a browser sends it in the Origin header (RFC 6454 §6.1).
    if (originOf(origin) !== origin) throw new UsageError(`--cors-origin expects an origin such as http://localhost:8000 (no path, no trailing slash), got ${JSON.stringify(origin)}`);
  }
  if (values['no-cors'] && origins.length > 0) throw new UsageError('--no-cors and --cors-origin contradict each other; give one');
  return { port: Number(values.port), host: values.host, fixtures: values.fixtures, quiet: values.quiet, cors: values['no-cors'] ? false : { origins } };
}

function originOf(text: string): string | undefined {
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}

function startBanner(url: string, file: string, state: MockState, embedded: boolean): string {
  // The embedded keys are public test values (README); keys from a user's file are secrets.
  const keys = state.apiKeys.map((k) => {
    const scope = k.permissions.includes('*') ? 'all operations' : k.permissions.join(', ') || 'no operations';
    return `    ${embedded ? k.key : '<hidden>'}  ${scope}${k.description ? `  (${k.description})` : ''}`;
  });
  const example = embedded ? `\n  try:  curl -H 'Authorization: ${state.apiKeys[0]?.key}' ${url}/api/admin/environments/project/${state.projects[0]?.id ?? 'default'}` : '';
  return [
    `flag-admin mock listening on ${url}`,
    `  state:  ${embedded ? 'embedded default fixtures' : relative(process.cwd(), file) || file}`,
    `  API keys (Authorization header):`,
    ...keys,
  ].join('\n') + `${example}\n  Ctrl-C to stop.\n`;
}
