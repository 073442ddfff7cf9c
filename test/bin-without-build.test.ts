import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url));

it('says what to install, exit 2, when installed from sources without the built JavaScript (a git URL)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flag-admin-git-install-'));
  try {
    // As npm leaves a git dependency: bin/ and the sources, no dist/ (the build runs on `npm pack`).
    const bin = join(dir, 'node_modules', 'flag-admin-contract', 'bin', 'flag-admin.js');
    mkdirSync(join(bin, '..'), { recursive: true });
    copyFileSync(BIN, bin);
    copyFileSync(join(BIN, '..', 'own-modules.js'), join(bin, '..', 'own-modules.js'));
    const run = await promisify(execFile)(process.execPath, [bin, '--version']).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect((run as { stderr: string }).stderr).toMatch(/^flag-admin: this copy of flag-admin-contract has no built JavaScript \(.*dist\/src\/cli\/main\.js is missing\)/);
    expect((run as { stderr: string }).stderr).toContain('npm pack');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
