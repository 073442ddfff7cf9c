import { relative } from 'node:path';
import { readJsonFile, type Contract } from '../../contract/index.ts';
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
 * The largest fixture file read (a project with 1,000,000 environments is ~100 MB): a wrong path
 * to a huge file is refused at once rather than read until the process runs out of memory.
 */
export const MAX_FIXTURE_BYTES = 256 * 1024 * 1024;

/** A syntax error names the line and column, never the text around it (it may hold a key). */
function readJson(file: string): unknown {
  return readJsonFile(file, { kind: 'FIXTURE', what: 'a readable JSON fixture file', maxBytes: MAX_FIXTURE_BYTES });
}
