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
      return {
        usage: CHECK_USAGE,
        run: async (argv, io) => {
          const suite = await checkSuite(io.env);
          const code = await suite.checkCommand(argv, io);
          // A run that came to a verdict (0 conformant, 1 not): the code it compiled is what the next runs call.
          if (code === 0 || code === 1) suite.keepCode();
          return code;
        },
      };
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
 * The suite: in a checkout, its bundle as the sources stand (bundled-entry.ts says why); the
 * sources themselves with FLAG_ADMIN_NO_BUNDLE=1 or where no bundle can be made, and in the
 * packed package (dist/, JavaScript: no esbuild there).
 */
async function checkSuite(env: CommandIo['env']): Promise<{ checkCommand: typeof import('../../conformance/cli.ts').checkCommand; keepCode(): void }> {
  const checkout = import.meta.url.endsWith('.ts');
  const source = new URL(`../../conformance/cli.${checkout ? 'ts' : 'js'}`, import.meta.url);
  if (checkout && env.FLAG_ADMIN_NO_BUNDLE !== '1') {
    const { fileURLToPath } = process.getBuiltinModule('node:url');
    const { bundledEntry, loadBundle } = await import('./bundled-entry.ts');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const bundle = await bundledEntry({ entry: fileURLToPath(source), root, cacheDir: `${root}.flag-admin-cache/check` });
    if (bundle !== undefined) {
      const loaded = loadBundle<typeof import('../../conformance/cli.ts')>(bundle.file);
      // The near-miss grammars' Unicode tables as an earlier run of this bundle derived them (~6 ms of every run to derive), kept
      // beside it as the code V8 compiled is: unicode-forms.ts takes them only if they were derived under this runtime's Unicode and ICU.
      const { adoptUnicodeFacts, unicodeFacts } = loaded.exports;
      const { readFileSync, renameSync, writeFileSync } = process.getBuiltinModule('node:fs');
      const factsFile = `${bundle.file}.unicode.json`;
      let adopted = false;
      try {
        adopted = adoptUnicodeFacts(JSON.parse(readFileSync(factsFile, 'utf8')));
      } catch {
        // None yet, or unreadable: this run derives them.
      }
      return {
        checkCommand: loaded.exports.checkCommand,
        keepCode() {
          loaded.keepCode();
          if (adopted) return;
          try {
            const temp = `${factsFile}-${process.pid}`;
            writeFileSync(temp, JSON.stringify(unicodeFacts()));
            renameSync(temp, factsFile);
          } catch {
            // A read-only folder: the next run derives them as this one did.
          }
        },
      };
    }
  }
  return { checkCommand: ((await import(source.href)) as typeof import('../../conformance/cli.ts')).checkCommand, keepCode: () => {} };
}
