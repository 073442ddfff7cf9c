import type { CommandIo } from './io.ts';

/** Errors of listen() that are the user's choice of --host/--port, said in one line. */
const LISTEN_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL']);

/**
 * A serving command (mock, proxy) that could not listen where it was told: one line naming the
 * address and what to change, and exit code 1. Undefined for any other error, which stays fatal.
 */
export function listenFailure(command: string, where: { host: string; port: number }, error: unknown, io: CommandIo): number | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined || !LISTEN_ERRORS.has(code)) return undefined;
  io.stderr(`flag-admin ${command}: cannot listen on ${where.host}:${where.port} (${code}); choose another with --port (0 picks a free one) or --host\n`);
  return 1;
}
