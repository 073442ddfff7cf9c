import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands.ts';
import { didYouMean } from './did-you-mean.ts';

const BIN = fileURLToPath(new URL('../../bin/flag-admin.js', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; engines: { node: string } };

/** Runs the real CLI; resolves to its exit code and output whatever the code. */
async function cli(args: string[], node = process.execPath) {
  try {
    const { stdout, stderr } = await promisify(execFile)(node, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('flag-admin', () => {
  it('prints the version of package.json with --version', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `flag-admin-contract ${PACKAGE.version}\n`, stderr: '' });
  });

  it('lists every command with help', async () => {
    const { code, stdout } = await cli(['help']);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command.name} +${command.summary}$`, 'm'));
  });

  it.each(COMMANDS.map((c) => c.name))('prints the usage of %s with help and with --help', async (name) => {
    const viaHelp = await cli(['help', name]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain(`Usage: flag-admin ${name}`);
    expect(await cli([name, '--help'])).toEqual(viaHelp);
  });

  it('suggests the command meant by a typo, in one line, with exit code 2', async () => {
    expect(await cli(['mokc'])).toEqual({ code: 2, stdout: '', stderr: `flag-admin: unknown command "mokc" (did you mean "mock"?). Run 'flag-admin help' for the list.\n` });
    expect((await cli(['serve'])).stderr).toBe(`flag-admin: unknown command "serve". Run 'flag-admin help' for the list.\n`);
    expect((await cli(['help', 'chek'])).stderr).toContain('(did you mean "check"?)');
  });

  it('suggests the flag meant by a typo for the check command too', async () => {
    const { code, stderr } = await cli(['check', '--bse-url', 'http://127.0.0.1:1']);
    expect(code).toBe(2);
    expect(stderr).toBe(`flag-admin check: unknown option --bse-url (did you mean --base-url?)\nRun 'flag-admin help check' for the options.\n`);
  });

  // The machines' system Node is 20, older than the kit's engines; where it is absent, nothing to run.
  const oldNode = ['/usr/bin/node', '/bin/node'].find((p) => existsSync(p));
  it.runIf(oldNode)('says which Node it needs, before loading anything, on a Node older than engines', async () => {
    const version = (await promisify(execFile)(oldNode!, ['--version'])).stdout.trim();
    const minimum = PACKAGE.engines.node.replace('>=', '');
    const [major, minor] = version.slice(1).split('.').map(Number) as [number, number];
    const [needMajor, needMinor] = minimum.split('.').map(Number) as [number, number];
    expect(major < needMajor || (major === needMajor && minor < needMinor), `${oldNode} is ${version}: not older than ${minimum}`).toBe(true);
    for (const args of [['mock'], ['check', '--base-url', 'http://127.0.0.1:1', '--api-key', 'k']]) {
      const { code, stdout, stderr } = await cli(args, oldNode);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(`flag-admin: needs Node ${minimum} or later; this is Node ${version.slice(1)} (${oldNode}).\nInstall a current Node (e.g. 24 LTS) and run it again; in a checkout of the kit, \`npx flag-admin\` uses the pinned Node 24.\n`);
    }
  });
});

describe('didYouMean', () => {
  it.each([
    ['--prot', ['--port', '--host'], '--port'],
    ['--hots', ['--port', '--host'], '--host'],
    ['chek', ['mock', 'check'], 'check'],
    ['--fix', ['--fixtures', '--port'], '--fixtures'],
    ['--verbose', ['--port', '--host', '--quiet'], undefined],
    ['x', ['mock', 'check'], undefined],
  ])('%s among %j suggests %s', (word, candidates, expected) => {
    expect(didYouMean(word, candidates)).toBe(expected);
  });
});
