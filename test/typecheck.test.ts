import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// Type stripping runs code without checking it; this keeps `tsc --noEmit` (strict) part of `npm test`,
// including the compile-time assertions on the generated types (src/contract/generate-types.test.ts).
it('type-checks the whole project with tsc --noEmit', async () => {
  // TypeScript 7's package exports do not expose bin/tsc, so it is found by path.
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const root = fileURLToPath(new URL('..', import.meta.url));
  const output = await new Promise<string>((resolve) => {
    execFile(process.execPath, [tsc, '--noEmit', '-p', root], { cwd: root }, (_error, stdout, stderr) => resolve(stdout + stderr));
  });
  expect(output).toBe('');
}, 120_000);
