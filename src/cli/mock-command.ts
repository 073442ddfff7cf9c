import { relative } from 'node:path';
import { ContractError } from '../contract/index.ts';
import { createRequestFacts, DEFAULT_FIXTURES, DEFAULT_FIXTURES_FILE, loadFixtures, startMock, watchFile, type MockState, type RunningMock, type Store } from '../mock/index.ts';
import { formatAccessLog } from './access-log.ts';
import { UsageError, usageFailure, type CommandIo } from './io.ts';
import { listenFailure } from './listen-failure.ts';
import { parseMockArgs, type MockArgs } from './mock-args.ts';
import { untilStopped } from './stop-with-parent.ts';

export { MOCK_USAGE } from './mock-args.ts';

/**
 * Serves the mock until SIGINT or SIGTERM (or, under npm, until npm's shell is gone), then closes
 * it and resolves to 0. Bad flags: one line and 2; a bad fixture: its file, JSON pointer and
 * expectation, and 2; a port or host that cannot be used: one line and 1.
 */
export async function mockCommand(argv: string[], io: CommandIo): Promise<number> {
  let options: MockArgs;
  try {
    options = parseMockArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure('mock', error.message, io);
  }

  const fixturesFile = options.fixtures ?? DEFAULT_FIXTURES_FILE;
  let mock: RunningMock;
  let facts: ReturnType<typeof createRequestFacts> | undefined;
  try {
    // startMock checks the fixtures before it listens: a bad one never opens the port.
    mock = await startMock({
      // Undefined for the embedded default, which the core takes as is (checked by the tests).
      fixtures: options.fixtures,
      port: options.port,
      host: options.host,
      cors: options.cors,
      maxSessions: options.maxSessions,
      maxRules: options.maxRules,
      ...options.limits,
      controlToken: options.controlToken,
      allowedHosts: options.allowedHosts,
      // The target as the journal records it: no userinfo, no key in the query.
      onResponse: options.quiet ? undefined : (line, request) => io.stdout(formatAccessLog({ ...line, url: mock.app.loggableTarget(request), ...facts!(request) }, options.logFormat)),
      onError: (error) => io.stderr(`flag-admin mock: internal error: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  } catch (error) {
    if (error instanceof ContractError) {
      io.stderr(`flag-admin mock: bad fixtures: ${error.message}\n`);
      return 2;
    }
    const failed = listenFailure('mock', options, error, io);
    if (failed !== undefined) return failed;
    throw error;
  }
  facts = createRequestFacts(mock.contract);

  // Signal handlers before the banner: a caller that reads "listening on" may stop the mock at once.
  const stopped = untilStopped(io.env);
  const unwatch = options.watch ? watchFile(fixturesFile, () => reload(mock, fixturesFile, io)) : () => {};
  io.stdout(startBanner(mock.url, fixturesFile, mock.store, options));
  await stopped;
  unwatch();
  await mock.close();
  io.stdout('flag-admin mock stopped\n');
  return 0;
}

/** --watch: serve the edited file, or keep the last good state and say what is wrong with the edit. */
function reload(mock: RunningMock, file: string, io: CommandIo): void {
  let state: MockState;
  try {
    state = loadFixtures(mock.contract, file);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    io.stderr(`flag-admin mock: fixtures not reloaded, still serving the last good state: ${error.message}\n`);
    return;
  }
  mock.app.setFixtures(state);
  io.stdout(`flag-admin mock: fixtures reloaded from ${shortPath(file)}; sessions start again from them\n`);
}

function shortPath(file: string): string {
  return relative(process.cwd(), file) || file;
}

/** The banner lists this many keys at most: a fixture may hold a million (bench/RESULTS.md, scale). */
const BANNER_KEYS = 3;

function startBanner(url: string, file: string, store: Store, options: MockArgs): string {
  const embedded = options.fixtures === undefined;
  const { keys: shown, total } = store.listApiKeys(BANNER_KEYS);
  // The embedded keys are public test values (README); keys from a user's file are secrets.
  const keys = shown.map((k) => {
    const scope = k.permissions.includes('*') ? 'all operations' : k.permissions.join(', ') || 'no operations';
    return `    ${embedded ? k.key : '<hidden>'}  ${scope}${k.description ? `  (${k.description})` : ''}`;
  });
  if (total > shown.length) keys.push(`    … and ${(total - shown.length).toLocaleString('en-US')} more`);
  const example = embedded ? `\n  try:  curl -H 'Authorization: ${shown[0]?.key}' ${url}/api/admin/environments/project/${DEFAULT_FIXTURES.projects[0]?.id ?? 'default'}` : '';
  const cors = options.cors === false ? 'off' : options.cors.origins.length ? options.cors.origins.join(', ') : 'any origin';
  return [
    `flag-admin mock listening on ${url}`,
    `  state:  ${embedded ? 'embedded default fixtures' : shortPath(file)}${options.watch ? ' (watched)' : ''}`,
    `  API keys (Authorization header):`,
    ...keys,
    `  CORS: ${cors}; sessions: X-Mock-Session (up to ${options.maxSessions}); control API: ${url}/__mock/ (${options.controlToken ? 'needs the control token' : 'loopback callers'})`,
    `  docs: ${url}/docs (spec: ${url}/openapi.json, ${url}/openapi.yaml)`,
  ].join('\n') + `${example}\n  Ctrl-C to stop.\n`;
}
