import { PROCESS_STDOUT } from './io.ts';

/**
 * Whether a command colours what it prints: never when NO_COLOR is set to anything
 * (no-color.org), always when FORCE_COLOR is set and not "0", otherwise only when it writes to
 * the process's own stdout and that is a terminal.
 */
export function colourWanted(io: { stdout: unknown; env: Record<string, string | undefined> }): boolean {
  if (io.env.NO_COLOR) return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '') return io.env.FORCE_COLOR !== '0';
  return (io.stdout as { [PROCESS_STDOUT]?: true } | null | undefined)?.[PROCESS_STDOUT] === true && Boolean(process.stdout.isTTY);
}
