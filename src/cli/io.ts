/** Where a command writes and what it reads from its environment; injected so tests can capture it. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
}

export const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

/** Bad flags: a usage message and exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Reports a usage mistake in one line and a pointer to the command's help, never the whole
 * usage text, and resolves to exit code 2.
 */
export function usageFailure(command: string, message: string, io: CommandIo): number {
  io.stderr(`flag-admin ${command}: ${message}\nRun 'flag-admin help ${command}' for the options.\n`);
  return 2;
}
