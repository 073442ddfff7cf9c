import type { CommandIo } from './io.ts';

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
      return { usage: CHECK_USAGE, run: async (argv, io) => (await import('../../conformance/cli.ts')).checkCommand(argv, io) };
    },
  },
  {
    name: 'spec',
    summary: 'review the spec: lint, decisions, bundle, diff',
    load: async () => {
      const m = await import('./spec-command.ts');
      return { usage: m.SPEC_USAGE, run: m.specCommand };
    },
  },
];
