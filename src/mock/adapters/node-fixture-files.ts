import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { ContractError, type Contract } from '../../contract/index.ts';
import { packageFile } from '../../package-files.ts';
import { checkFixtures, type FixtureLabels } from '../core/fixture-check.ts';
import type { MockState } from '../core/state.ts';

export const DEFAULT_FIXTURES_FILE = packageFile('fixtures', 'default.json');
export const FIXTURE_SCHEMA_FILE = packageFile('fixtures', 'fixture.schema.json');

/** Where fixtures come from: a JSON file, or a state value (named `label` in errors). */
export type FixtureSource = string | MockState;

/** A path as a reader finds it from where they ran the command. */
export function shortPath(file: string): string {
  const path = relative(process.cwd(), file);
  return path.startsWith('..') || path === '' ? file : path;
}

/**
 * Reads and checks a state (see checkFixtures). A bad fixture throws a ContractError naming the
 * file, the JSON pointer and what was expected.
 */
export function loadFixtures(contract: Contract, source: FixtureSource = DEFAULT_FIXTURES_FILE, label = '(fixtures object)'): MockState {
  const file = typeof source === 'string' ? source : label;
  const value = typeof source === 'string' ? readJson(source) : source;
  return checkFixtures(contract, value, file, nodeFixtureLabels(contract));
}

/** Fixture errors name the spec and the fixture schema as paths from the working folder. */
export function nodeFixtureLabels(contract: Contract): FixtureLabels {
  return { spec: shortPath(contract.specFile), fixtureSchema: shortPath(FIXTURE_SCHEMA_FILE) };
}

/**
 * The largest fixture file read (a project with 1,000,000 environments is ~100 MB). Checked before
 * reading, so a wrong path to a huge file, or a device that never ends (/dev/zero), is refused
 * at once rather than read until the process runs out of memory.
 */
export const MAX_FIXTURE_BYTES = 256 * 1024 * 1024;

function readJson(file: string): unknown {
  let text: string;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) throw new ContractError('FIXTURE_UNREADABLE', { file, expected: 'a regular JSON file', got: 'something else (a folder, a device or a pipe)' });
    if (stats.size > MAX_FIXTURE_BYTES) throw new ContractError('FIXTURE_TOO_LARGE', { file, expected: `a fixture file of at most ${MAX_FIXTURE_BYTES / 2 ** 20} MiB`, got: `${(stats.size / 2 ** 20).toFixed(0)} MiB` });
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof ContractError) throw error;
    throw new ContractError('FIXTURE_UNREADABLE', { file, expected: 'a readable JSON fixture file', got: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ContractError('FIXTURE_JSON', { file, expected: 'valid JSON', got: (error as Error).message });
  }
}
