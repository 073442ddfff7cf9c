/** Where a command writes and what it reads from its environment; injected so tests can capture it. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
}

/**
 * A stream whose reader went away (`flag-admin spec bundle | head -1`, a closed log pipe) takes no
 * more writes: the command ends as it would have, with its own exit code and its report files,
 * instead of an unhandled EPIPE stack trace and exit 1. Any other write error stays fatal.
 */
function writerUntilReaderLeaves(stream: NodeJS.WriteStream): (text: string) => void {
  let gone = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    gone = true;
  });
  return (text) => {
    if (!gone) stream.write(text);
  };
}

/**
 * Marks the writer of the process's own stdout (colour.ts asks). A symbol of the global registry,
 * not the writer's identity: `check` runs from a bundle (bundled-entry.ts) that holds its own copy
 * of this module, and the writer main() hands it must still count as the process's.
 */
export const PROCESS_STDOUT = Symbol.for('flag-admin-contract: the process stdout writer');

export const processIo: CommandIo = {
  stdout: Object.assign(writerUntilReaderLeaves(process.stdout), { [PROCESS_STDOUT]: true }),
  stderr: writerUntilReaderLeaves(process.stderr),
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
