import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledEntry, loadBundle } from './bundled-entry.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A package of two TypeScript modules (an entry importing a second one) in a fresh folder. */
function tinyPackage(): { root: string; entry: string; cacheDir: string; second: string } {
  const root = mkdtempSync(join(tmpdir(), 'bundled-entry-'));
  folders.push(root);
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(root, 'src'));
  const entry = join(root, 'src', 'entry.ts');
  const second = join(root, 'src', 'second.ts');
  writeFileSync(entry, "import { word } from './second.ts';\nexport const said: string = `said ${word}`;\n");
  writeFileSync(second, "export const word: string = 'one';\n");
  return { root, entry, cacheDir: join(root, '.cache'), second };
}

describe('bundledEntry', () => {
  it('bundles the entry and its imports once, then hands out the same bundle while no input changed', async () => {
    const pkg = tinyPackage();
    const first = await bundledEntry(pkg);
    expect(first?.built).toBe(true);
    expect(first!.file).not.toBe(pkg.entry);
    expect(loadBundle<{ said: string }>(first!.file).exports.said).toBe('said one');
    const again = await bundledEntry(pkg);
    expect(again).toEqual({ file: first!.file, built: false });
  });

  it('builds again when an input changes, and the new bundle holds the change', async () => {
    const pkg = tinyPackage();
    const first = await bundledEntry(pkg);
    writeFileSync(pkg.second, "export const word: string = 'two';\n");
    const second = await bundledEntry(pkg);
    expect(second?.built).toBe(true);
    expect(second!.file).not.toBe(first!.file);
    expect(loadBundle<{ said: string }>(second!.file).exports.said).toBe('said two');
  });

  it('builds again when an input keeps its size but not its modification time (an edit of the same length, a file restored with its old date)', async () => {
    const pkg = tinyPackage();
    await bundledEntry(pkg);
    writeFileSync(pkg.second, "export const word: string = 'eno';\n");
    utimesSync(pkg.second, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const second = await bundledEntry(pkg);
    expect(second?.built).toBe(true);
    expect(loadBundle<{ said: string }>(second!.file).exports.said).toBe('said eno');
  });

  it('uses no build an input of which changed while it was made (a modification time at or after its start): the sources run instead', async () => {
    const pkg = tinyPackage();
    utimesSync(pkg.second, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(await bundledEntry(pkg)).toBeUndefined();
  });

  it('keeps every build in a folder of its own under the cache folder (a run that started on an older one still finds its lazy chunks)', async () => {
    const pkg = tinyPackage();
    await bundledEntry(pkg);
    writeFileSync(pkg.second, "export const word: string = 'three';\n");
    await bundledEntry(pkg);
    expect(readdirSync(pkg.cacheDir).filter((name) => name.startsWith('build-')).length).toBe(2);
  });

  it('runs the bundle from the code V8 kept after an earlier run, the functions that run called included', async () => {
    const pkg = tinyPackage();
    writeFileSync(pkg.second, "export const word: string = 'one';\nexport function shout(text: string): string { return text.toUpperCase(); }\n");
    writeFileSync(pkg.entry, "import { shout, word } from './second.ts';\nexport const said: string = `said ${word}`;\nexport { shout };\n");
    const { file } = (await bundledEntry(pkg))!;
    const first = loadBundle<{ shout(text: string): string }>(file);
    expect(first.fromCodeCache).toBe(false);
    expect(first.exports.shout('one')).toBe('ONE');
    first.keepCode();
    const second = loadBundle<{ shout(text: string): string }>(file);
    expect(second.fromCodeCache).toBe(true);
    expect(second.exports.shout('two')).toBe('TWO');
  });

  it('runs the bundle as strict code, as the ES modules it was made from are', async () => {
    const pkg = tinyPackage();
    writeFileSync(pkg.second, "export const word: string = 'one';\nexport function writeFrozen(): void { const frozen = Object.freeze({ a: 1 }); (frozen as { a: number }).a = 2; }\n");
    writeFileSync(pkg.entry, "export { writeFrozen } from './second.ts';\n");
    const { file } = (await bundledEntry(pkg))!;
    expect(() => loadBundle<{ writeFrozen(): void }>(file).exports.writeFrozen()).toThrow(TypeError);
  });

  it('builds again when the latest build is gone or was made another way (an older loader), whatever the inputs say', async () => {
    const pkg = tinyPackage();
    const first = (await bundledEntry(pkg))!;
    const latestFile = join(pkg.cacheDir, 'latest.json');
    const latest = JSON.parse(readFileSync(latestFile, 'utf8')) as { format: string };
    writeFileSync(latestFile, JSON.stringify({ ...latest, format: 'esm, v0' }));
    expect((await bundledEntry(pkg))?.built).toBe(true);
    rmSync(dirname((await bundledEntry(pkg))!.file), { recursive: true });
    const again = (await bundledEntry(pkg))!;
    expect(again.built).toBe(true);
    expect(loadBundle<{ said: string }>(again.file).exports.said).toBe('said one');
    expect(first.file).not.toBe(again.file);
  });

  it('uses no bundle esbuild warned about (import.meta.dirname would be empty in CommonJS): the sources run instead', async () => {
    const pkg = tinyPackage();
    writeFileSync(pkg.entry, "export const here: string | undefined = import.meta.dirname;\n");
    expect(await bundledEntry(pkg)).toBeUndefined();
  });
});
