import type { CommandIo } from './io.ts';
import { SPEC_VERBS } from './spec-verbs.ts';

/** One `flag-admin` command. Loaded on use, so `flag-admin mock` never loads the suite. */
export interface Command {
  /** The word after `flag-admin`, e.g. `mock`. */
  name: string;
  /** One line for `flag-admin help`. */
  summary: string;
  /** Resolves to the command's usage text and its run function. */
  load(): Promise<{ usage: string; run(argv: string[], io: CommandIo): Promise<number> }>;
}

/**
 * Every command of the CLI. A new command is one entry here and one module of its own.
 * @example { name: 'mock', summary: '…', load: async () => { const m = await import('./mock-command.ts'); return { usage: m.MOCK_USAGE, run: m.mockCommand }; } }
 */
export const COMMANDS: readonly Command[] = [
  {
    name: 'mock',
    summary: 'serve the stateful mock of the API',
    load: async () => {
      const m = await import('./mock-command.ts');
      return { usage: m.MOCK_USAGE, run: m.mockCommand };
    },
  },
  {
    name: 'proxy',
    summary: 'forward to a real backend, judging the traffic; record it into fixtures',
    load: async () => {
      const m = await import('./proxy-command.ts');
      return { usage: m.PROXY_USAGE, run: m.proxyCommand };
    },
  },
  {
    name: 'check',
    summary: 'run the conformance suite against a server',
    // The usage alone for --help: the suite (~350 modules) loads only to run.
    load: async () => {
      const { CHECK_USAGE } = await import('../../conformance/check-usage.ts');
      return { usage: CHECK_USAGE, run: async (argv, io) => ((await import(await checkModule(io.env))) as typeof import('../../conformance/cli.ts')).checkCommand(argv, io) };
    },
  },
  {
    name: 'spec',
    summary: `review the spec: ${SPEC_VERBS.join(', ')}`,
    load: async () => {
      const m = await import('./spec-command.ts');
      return { usage: m.SPEC_USAGE, run: m.specCommand };
    },
  },
];

/**
 * The suite's entry: in a checkout, its bundle as the sources stand (bundled-entry.ts says why);
 * the sources themselves with FLAG_ADMIN_NO_BUNDLE=1 or where no bundle can be made, and in the
 * packed package (dist/, JavaScript: no esbuild there).
 */
async function checkModule(env: CommandIo['env']): Promise<string> {
  const source = new URL(`../../conformance/cli.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);
  if (!import.meta.url.endsWith('.ts') || env.FLAG_ADMIN_NO_BUNDLE === '1') return source.href;
  const { fileURLToPath } = process.getBuiltinModule('node:url');
  const { bundledEntry } = await import('./bundled-entry.ts');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const bundle = await bundledEntry({ entry: fileURLToPath(source), root, cacheDir: `${root}.flag-admin-cache/check` });
  return bundle?.url ?? source.href;
}
