import { processIo, type CommandIo } from './io.ts';
import { mockCommand, MOCK_USAGE } from './mock-command.ts';

const USAGE = `Usage: flag-admin <command> [options]

Commands:
  mock    serve the stateful mock of the API        (flag-admin mock --help)
  check   run the conformance suite against a server (flag-admin check --help)
`;

/** Dispatches to a command and resolves to the process exit code. */
export async function main(argv: string[], io: CommandIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'mock':
      return mockCommand(rest, io);
    case 'check': {
      const { checkCommand } = await import('../../conformance/cli.ts');
      return checkCommand(rest, io);
    }
    case '-h':
    case '--help':
    case 'help':
      io.stdout(`${USAGE}\n${MOCK_USAGE}`);
      return 0;
    default:
      io.stderr(`${command === undefined ? 'No command given.' : `Unknown command "${command}".`}\n\n${USAGE}`);
      return 2;
  }
}
