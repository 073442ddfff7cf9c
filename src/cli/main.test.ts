import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.ts';
import { createMock, serveHandler } from '../mock/index.ts';
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

  it('suggests the global option meant by a typo, in one line, with exit code 2', async () => {
    expect(await cli(['--versoin'])).toEqual({ code: 2, stdout: '', stderr: `flag-admin: unknown option "--versoin" (did you mean "--version"?). Run 'flag-admin help' for the list.\n` });
    expect((await cli(['--hepl'])).stderr).toContain('(did you mean "--help"?)');
    expect((await cli(['--frobnicate'])).stderr).toBe(`flag-admin: unknown option "--frobnicate". Run 'flag-admin help' for the list.\n`);
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

/**
 * Runs the CLI with its stdout read by nobody: the read end is closed at once, as `| head -1`
 * does after its line or `| true` before any. Resolves once the process ends.
 */
async function cliIntoClosedPipe(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])));
  clearTimeout(killer);
  return { code, signal, stderr };
}

describe('a reader that goes away (issue 13, item 14: `flag-admin spec bundle | head -1`)', () => {
  const SPEC = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
  it.each([
    [['help'], 0],
    [['--version'], 0],
    [['help', 'check'], 0],
    [['spec', 'bundle', '--dereference'], 0],
    [['spec', 'bundle', '--format', 'json'], 0],
    [['spec', 'decisions'], 0],
    [['spec', 'lint'], 0],
    [['spec', 'diff', SPEC, SPEC], 0],
  ] as [string[], number][])('flag-admin %j ends quietly with its own exit code %i', async (args, code) => {
    const run = await cliIntoClosedPipe(args);
    expect(run.stderr).toBe('');
    expect(run).toEqual({ code, signal: null, stderr: '' });
  });

  it('flag-admin check still judges, writes its JSON report and exits with the verdict', async () => {
    const contract = await loadContract({ validate: false });
    const mock = createMock({ contract });
    const server = await serveHandler((request) => mock.handle(request), { port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'flag-admin-epipe-'));
    try {
      const run = await cliIntoClosedPipe(['check', '--base-url', server.url, '--api-key', 'mock-admin-key', '--json', join(dir, 'report.json')]);
      expect(run).toEqual({ code: 0, signal: null, stderr: '' });
      expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ verdict: 'conformant' });
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
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
