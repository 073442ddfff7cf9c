import { readFileSync } from 'node:fs';
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

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ContractError('FIXTURE_UNREADABLE', { file, expected: 'a readable JSON fixture file', got: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ContractError('FIXTURE_JSON', { file, expected: 'valid JSON', got: (error as Error).message });
  }
}
