// Test helpers: run the real CLI (bin/flag-admin.js) and build spec variants from a base.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { parse, stringify } from 'yaml';
import { pointerTokens } from '../../contract/json-pointer.ts';

const BIN = fileURLToPath(new URL('../../../bin/flag-admin.js', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('.', import.meta.url));

/** Runs `flag-admin ...args` with optional stdin; resolves to its exit code and output. */
export function cli(args: string[], { stdin, cwd }: { stdin?: string; cwd?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/**
 * Runs `flag-admin ...args` in this process through the CLI's `main()`, capturing its output and
 * exit code: the same entry point as the binary without a Node start-up per call (~0.3 s each,
 * seconds under load), so fixture tables can grow. Files only: stdin is the test runner's.
 */
export async function cliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../../cli/main.ts');
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), env: {} });
  return { code, stdout, stderr };
}

/** Edits of a document: set a pointer to a value, remove a pointer, move a key to another pointer. */
export interface Edits {
  set?: Record<string, unknown>;
  remove?: string[];
  move?: Record<string, string>;
}

export function applyEdits(document: unknown, edits: Edits = {}): unknown {
  const copy = structuredClone(document);
  const parentOf = (pointer: string) => {
    const tokens = pointerTokens(pointer);
    const last = tokens.pop()!;
    const parent = tokens.reduce<Record<string, unknown>>((node, token) => {
      if (node[token] === undefined) node[token] = {};
      return node[token] as Record<string, unknown>;
    }, copy as Record<string, unknown>);
    return { parent, last };
  };
  const remove = (pointer: string) => {
    const { parent, last } = parentOf(pointer);
    const value = parent[last];
    if (value === undefined) throw new Error(`fixture edit: nothing at ${pointer}`);
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return value;
  };
  for (const [from, to] of Object.entries(edits.move ?? {})) {
    const value = remove(from);
    const { parent, last } = parentOf(to);
    parent[last] = value;
  }
  for (const pointer of edits.remove ?? []) remove(pointer);
  for (const [pointer, value] of Object.entries(edits.set ?? {})) {
    const { parent, last } = parentOf(pointer);
    parent[last] = value;
  }
  return copy;
}

export function readYaml(file: string): unknown {
  return parse(readFileSync(file, 'utf8'));
}

const folders: string[] = [];
// Registered on the importing test file: its temporary specs go when its tests are done.
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Writes documents as YAML files into a fresh temporary folder (removed after the test file); returns their paths. */
export function writeSpecs(documents: Record<string, unknown>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'flag-admin-spec-'));
  folders.push(dir);
  return Object.fromEntries(
    Object.entries(documents).map(([name, document]) => {
      const file = join(dir, name);
      writeFileSync(file, stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 }));
      return [name, file];
    }),
  );
}
