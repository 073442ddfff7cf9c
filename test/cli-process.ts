import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const BIN = fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A serving CLI command in a child process: its output so far, its exit, and a wait for a line. */
export interface CliChild {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Resolves to the first match of `pattern` in stdout; throws (with both outputs) after ~5 s or when the child exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  out(): string;
  err(): string;
}

/**
 * `run(args)` starts the real CLI with the Node that runs the tests (the pinned Node 24), or
 * `command` instead (e.g. `['npm']`); every child still running is killed after each test.
 */
export function useCliProcesses(env: NodeJS.ProcessEnv = process.env): (args: string[], command?: string[]) => CliChild {
  const children: ChildProcess[] = [];
  afterEach(() => children.splice(0).forEach((c) => c.exitCode === null && c.kill('SIGKILL')));
  return (args, command = [process.execPath, BIN]) => {
    const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd: ROOT, env });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waitFor = async (pattern: RegExp) => {
      for (let i = 0; i < 200; i++) {
        const found = pattern.exec(stdout);
        if (found) return found;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no ${pattern} in stdout: ${stdout}\nstderr: ${stderr}`);
    };
    return { child, exited, waitFor, out: () => stdout, err: () => stderr };
  };
}
