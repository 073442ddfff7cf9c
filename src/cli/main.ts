import { COMMANDS } from './commands.ts';
import { processIo, type CommandIo } from './io.ts';

// did-you-mean.ts and version.ts (with package-files.ts) load only where they are used: every
// start pays for each module it loads, and `flag-admin check --help` stays near `node -e 0`
// (bench/run.ts, CLI start-up).

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: flag-admin <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `  flag-admin help <command>   the options of one command`,
    `  flag-admin --version        the kit's version`,
    '',
  ].join('\n');
}

/** A mistyped or unknown command: one line, a suggestion when one is close, never the whole usage. */
async function unknownCommand(word: string, io: CommandIo): Promise<number> {
  const { didYouMean } = await import('./did-you-mean.ts');
  const meant = didYouMean(word, COMMANDS.map((c) => c.name));
  io.stderr(`flag-admin: unknown command "${word}"${meant ? ` (did you mean "${meant}"?)` : ''}. Run 'flag-admin help' for the list.\n`);
  return 2;
}

/** The options `flag-admin` itself takes, before any command. */
const GLOBAL_OPTIONS = ['--version', '-v', '--help', '-h'];

/** A mistyped global option (`--versoin`): one line, with the option meant when one is close. */
async function unknownOption(word: string, io: CommandIo): Promise<number> {
  const { didYouMean } = await import('./did-you-mean.ts');
  const meant = didYouMean(word, GLOBAL_OPTIONS.filter((o) => o.startsWith('--')));
  io.stderr(`flag-admin: unknown option "${word}"${meant ? ` (did you mean "${meant}"?)` : ''}. Run 'flag-admin help' for the list.\n`);
  return 2;
}

/** Dispatches to a command and resolves to the process exit code. */
export async function main(argv: string[], io: CommandIo = processIo): Promise<number> {
  const [word, ...rest] = argv;
  if (word === undefined) {
    io.stderr(`No command given.\n\n${usage()}`);
    return 2;
  }
  if (word === GLOBAL_OPTIONS[0] || word === GLOBAL_OPTIONS[1] || word === 'version') {
    const { kitVersion } = await import('./version.ts');
    io.stdout(`flag-admin-contract ${kitVersion()}\n`);
    return 0;
  }
  if (word === 'help' || word === GLOBAL_OPTIONS[2] || word === GLOBAL_OPTIONS[3]) {
    const topic = rest[0];
    if (topic === undefined) {
      io.stdout(usage());
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === topic);
    if (!command) return unknownCommand(topic, io);
    io.stdout((await command.load()).usage);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === word);
  if (!command) return word.startsWith('-') ? unknownOption(word, io) : unknownCommand(word, io);
  const { usage: commandUsage, run } = await command.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(commandUsage);
    return 0;
  }
  return run(rest, io);
}
