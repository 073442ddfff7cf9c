// `spec decisions` on real published documents: none of them records x-decisions (checked by hand:
// `grep -c x-decisions` is 0 in each), so each is told in one line, and JSON is an empty list.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REAL_DOCUMENTS } from './real-documents.ts';

const BIN = new URL('../../bin/flag-admin.js', import.meta.url).pathname;
const run = (args: string[]) => promisify(execFile)(process.execPath, [BIN, ...args], { maxBuffer: 1 << 26 });

describe('spec decisions on real published documents', () => {
  it.each(REAL_DOCUMENTS.map((d) => [d.name, d] as const))('%s: no decision recorded, said in one line', async (_name, document) => {
    const { stdout, stderr } = await run(['spec', 'decisions', document.file]);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${document.file}: no decisions recorded (no x-decisions entry anywhere in the document)\n`);
    expect((await run(['spec', 'decisions', document.file, '--format', 'json'])).stdout).toBe('[]\n');
  });
});
