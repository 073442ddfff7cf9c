import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledEntry } from './bundled-entry.ts';

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
    expect(first!.url).not.toBe(pathToFileURL(pkg.entry).href);
    expect((await import(first!.url)).said).toBe('said one');
    const again = await bundledEntry(pkg);
    expect(again).toEqual({ url: first!.url, built: false });
  });

  it('builds again when an input changes, and the new bundle holds the change', async () => {
    const pkg = tinyPackage();
    const first = await bundledEntry(pkg);
    writeFileSync(pkg.second, "export const word: string = 'two';\n");
    const second = await bundledEntry(pkg);
    expect(second?.built).toBe(true);
    expect(second!.url).not.toBe(first!.url);
    expect((await import(second!.url)).said).toBe('said two');
  });

  it('builds again when an input keeps its size but not its modification time (an edit of the same length, a file restored with its old date)', async () => {
    const pkg = tinyPackage();
    await bundledEntry(pkg);
    writeFileSync(pkg.second, "export const word: string = 'eno';\n");
    utimesSync(pkg.second, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const second = await bundledEntry(pkg);
    expect(second?.built).toBe(true);
    expect((await import(second!.url)).said).toBe('said eno');
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
});
