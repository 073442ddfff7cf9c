import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/flag-admin.js', import.meta.url));
const OWN_MODULES = pathToFileURL(fileURLToPath(new URL('../../bin/own-modules.js', import.meta.url))).href;

// FLAG_ADMIN_NO_BUNDLE=1: the suite's own modules, not its bundle (src/cli/bundled-entry.ts), which is what the hook serves.
async function node(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', FLAG_ADMIN_NO_BUNDLE: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

// Registered before the bin's own hook, so it runs after it (module.registerHooks chains the last
// registered first): it sees only what the bin's hook hands on to Node's resolver.
const REPORT_RESOLVES = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    process.stderr.write('resolved ' + JSON.stringify([specifier, context.parentURL ?? '']) + '\\n');
    return next(specifier, context);
  },
  load(url, context, next) {
    process.stderr.write('loaded ' + url + '\\n');
    return next(url, context);
  },
});
`)}`;

// Node's resolver first, then the kit's hook on the same specifier: every answer the hook gives is
// reported beside Node's, and every relative import of a kit file the hook leaves to Node.
const COMPARE = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const { ownModulesHook } = await import(${JSON.stringify(OWN_MODULES)});
const own = ownModulesHook(new URL('..', ${JSON.stringify(OWN_MODULES)}));
registerHooks({ resolve(specifier, context, next) {
  const node = next(specifier, context);
  let left = false;
  const ours = own(specifier, context, () => { left = true; return undefined; });
  if (ours) process.stderr.write('compared ' + JSON.stringify({ specifier, parent: context.parentURL, ours: [ours.url, ours.format], node: [node.url, node.format] }) + '\\n');
  else if (left && /^\\.\\.?\\//.test(specifier) && !specifier.endsWith('.cjs') && !specifier.endsWith('.json')) process.stderr.write('left ' + specifier + '\\n');
  return node;
} });
`)}`;

describe("the kit's own modules (bin/own-modules.js)", () => {
  it("reach none of Node's resolver when the bin loads the whole suite", async () => {
    // `check` without --base-url: the suite's modules load (conformance/cli.ts and all it imports), then a usage error.
    const run = await node(['--import', REPORT_RESOLVES, BIN, 'check']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/missing --base-url/);
    const resolved = [...run.stderr.matchAll(/^resolved (.+)$/gm)].map((m) => JSON.parse(m[1]!) as [string, string]);
    // The bin's own import of the hook comes before the hook.
    const own = resolved.filter(([specifier, parent]) => /^\.\.?\//.test(specifier) && parent.startsWith(pathToFileURL(ROOT).href) && !parent.includes('/node_modules/') && parent !== pathToFileURL(BIN).href);
    expect(own).toEqual([]);
    // The suite did load: its modules were read, by way of the bin's hook.
    const loaded = [...run.stderr.matchAll(/^loaded (.+)$/gm)].map((m) => m[1]!);
    expect(loaded).toContain(pathToFileURL(`${ROOT}conformance/run.ts`).href);
    expect(loaded.filter((url) => url.startsWith(pathToFileURL(ROOT).href)).length).toBeGreaterThan(100);
  });

  it("give the URL and format Node's resolver gives, for every import of the suite and the mock", async () => {
    const script = `const { main } = await import(${JSON.stringify(pathToFileURL(`${ROOT}src/cli/main.ts`).href)});
await main(['check'], { stdout() {}, stderr() {}, env: { FLAG_ADMIN_NO_BUNDLE: '1' } });
await import(${JSON.stringify(pathToFileURL(`${ROOT}src/mock/index.ts`).href)});`;
    const run = await node(['--import', COMPARE, '--input-type=module', '-e', script]);
    expect(run.code, run.stderr).toBe(0);
    const compared = [...run.stderr.matchAll(/^compared (.+)$/gm)].map((m) => JSON.parse(m[1]!) as { specifier: string; ours: string[]; node: string[] });
    expect(compared.length).toBeGreaterThan(300);
    expect(compared.filter((c) => c.ours[0] !== c.node[0] || c.ours[1] !== c.node[1])).toEqual([]);
    expect([...run.stderr.matchAll(/^left (.+)$/gm)].map((m) => m[1])).toEqual([]);
  });

  it("leave to Node's resolver a missing file (Node names it: ERR_MODULE_NOT_FOUND), a require, a path without an extension, and a module outside the kit or in its node_modules", async () => {
    // @ts-expect-error: plain JavaScript of the bin, no declarations.
    const { ownModulesHook } = (await import('../../bin/own-modules.js')) as { ownModulesHook(root: URL): (specifier: string, context: { parentURL?: string; conditions: string[] }, next: (s: string) => unknown) => unknown };
    const hook = ownModulesHook(pathToFileURL(ROOT));
    const parent = pathToFileURL(`${ROOT}src/cli/main.ts`).href;
    const left = (specifier: string, parentURL: string, conditions = ['node', 'import']) => hook(specifier, { parentURL, conditions }, () => 'left') === 'left';
    expect(left('./no-such-module.ts', parent)).toBe(true);
    expect(left('./commands.ts', parent, ['node', 'require'])).toBe(true);
    expect(left('./commands.ts', pathToFileURL(`${ROOT}node_modules/some-package/index.js`).href)).toBe(true);
    expect(left('./commands.ts', 'file:///elsewhere/src/cli/main.ts')).toBe(true);
    expect(left('./commands', parent)).toBe(true);
    expect(left('./commands.ts', parent)).toBe(false);
  });
});
