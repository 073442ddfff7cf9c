import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { batchedLines } from './batched-lines.ts';

const MODULE = fileURLToPath(new URL('./batched-lines.ts', import.meta.url));

describe('batchedLines', () => {
  it('writes the lines of one turn of the event loop together, in order, and what is pending on close', async () => {
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text));
    log.write('a\n');
    log.write('b\n');
    log.write('c\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\nc\n']);
    log.write('d\n');
    log.close();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes at once past 64 KiB pending', () => {
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text));
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) log.write(line);
    expect(writes).toEqual([line.repeat(64)]);
    log.close();
  });

  it('loses no line when the process dies of an error before the next turn', () => {
    const script = `
      import { batchedLines } from ${JSON.stringify(MODULE)};
      const log = batchedLines((text) => process.stdout.write(text));
      log.write('GET /api/admin/auth/oidc/settings 200\\n');
      throw new Error('a bug');
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain('a bug');
    expect(child.stdout).toBe('GET /api/admin/auth/oidc/settings 200\n');
  });
});
