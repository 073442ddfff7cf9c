import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { DEFAULT_SPEC_FILE } from '../../src/contract/index.ts';

export interface RunningPrism {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts `prism mock` on the kit's spec with the pinned Node (process.execPath) on a port the
 * system picks (`-p 0`), and resolves once Prism prints the address it listens on.
 */
export async function startPrism(specFile = DEFAULT_SPEC_FILE, timeoutMs = 30_000): Promise<RunningPrism> {
  const cli = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  const child = spawn(process.execPath, [cli, 'mock', specFile, '-p', '0', '-h', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
