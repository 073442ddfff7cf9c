import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ContractError, compileValidator, createAjv, pointerOf, pointsIntoSecret, readJsonFile, redactSecrets, resolvePointer, type Contract, type JsonSchema, type Validate } from '../contract/index.ts';
import { packageFile } from '../package-files.ts';
import type { MockState } from './state.ts';

export const DEFAULT_FIXTURES_FILE = packageFile('fixtures', 'default.json');
export const FIXTURE_SCHEMA_FILE = packageFile('fixtures', 'fixture.schema.json');

/** Where fixtures come from: a JSON file, or a state value (named `label` in errors). */
export type FixtureSource = string | MockState;

const validators = new WeakMap<Contract, Validate>();

/** The id under which the spec's components/schemas are lent to the fixture schema (see its `$ref`s). */
const SPEC_SCHEMAS_ID = 'urn:flag-admin:spec';

function shortPath(file: string): string {
  const path = relative(process.cwd(), file);
  return path.startsWith('..') || path === '' ? file : path;
}

/**
 * Reads and checks a state: JSON Schema first (fixtures/fixture.schema.json, whose value
 * schemas are the spec's own), then the references between records. A bad fixture throws a
 * ContractError naming the file, the JSON pointer and what was expected.
 */
export function loadFixtures(contract: Contract, source: FixtureSource = DEFAULT_FIXTURES_FILE, label = '(fixtures object)'): MockState {
  const file = typeof source === 'string' ? source : label;
  const value = typeof source === 'string' ? readJson(source) : source;
  const [violation] = fixtureValidator(contract)(value);
  if (violation) {
    const secrets = new Set([...contract.secretProperties, API_KEY_PROPERTY]);
    const got =
      violation.keyword === 'required'
        ? 'none'
        : pointsIntoSecret(violation.instancePointer, secrets)
          ? '(a value not shown: it is a secret)'
          : excerpt(redactSecrets(resolvePointer(value, violation.instancePointer), secrets));
    throw new ContractError('FIXTURE_INVALID', { file, pointer: violation.instancePointer, expected: `${violation.expected} (${violation.schemaPointer})`, got });
  }
  const state = value as MockState;
  checkReferences(state, file, contract);
  return state;
}

/** The property of an API key record holding the key: with password-format properties, never shown in an error. */
const API_KEY_PROPERTY = 'key';

function excerpt(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A syntax error names the line and column, never the text around it (it may hold a key). */
function readJson(file: string): unknown {
  return readJsonFile(file, { kind: 'FIXTURE', what: 'a readable JSON fixture file' });
}

function fixtureValidator(contract: Contract): Validate {
  let validate = validators.get(contract);
  if (!validate) {
    const ajv = createAjv();
    const components = contract.document.components as JsonSchema | undefined;
    ajv.addSchema({ $id: SPEC_SCHEMAS_ID, $defs: components?.schemas ?? {} });
    const schema = JSON.parse(readFileSync(FIXTURE_SCHEMA_FILE, 'utf8')) as JsonSchema;
    // Point at the file a reader opens: the spec for the value schemas it lends, else the fixture schema.
    const specSchemas = `${shortPath(contract.specFile)}#/components/schemas/`;
    const fixtureSchema = `${shortPath(FIXTURE_SCHEMA_FILE)}#`;
    validate = compileValidator(ajv, schema, (schemaPath) =>
      schemaPath.startsWith(`${SPEC_SCHEMAS_ID}#/$defs/`) ? specSchemas + schemaPath.slice(`${SPEC_SCHEMAS_ID}#/$defs/`.length) : fixtureSchema + schemaPath,
    );
    validators.set(contract, validate);
  }
  return validate;
}

function checkReferences(state: MockState, file: string, contract: Contract): void {
  const fail = (tokens: (string | number)[], expected: string, got: string): never => {
    throw new ContractError('FIXTURE_INVALID', { file, pointer: pointerOf(tokens), expected, got });
  };
  const unique = <T>(items: T[], idOf: (item: T) => string, at: (string | number)[], what: string) => {
    const first = new Map<string, number>();
    items.forEach((item, i) => {
      const id = idOf(item);
      const earlier = first.get(id);
      // Says where the twin is rather than quoting the value: for API keys the value is a secret.
      if (earlier !== undefined) fail([...at, i], `a unique ${what}`, `the same as ${pointerOf([...at, earlier])}`);
      first.set(id, i);
    });
  };

  const operationIds = new Set(contract.operations.map((o) => o.operationId));
  unique(state.apiKeys, (k) => k.key, ['apiKeys'], 'key');
  state.apiKeys.forEach((k, i) =>
    k.permissions.forEach((permission, j) => {
      if (permission !== '*' && !operationIds.has(permission)) {
        fail(['apiKeys', i, 'permissions', j], `"*" or an operationId of the spec (${[...operationIds].join(', ')})`, JSON.stringify(permission));
      }
    }),
  );
  unique(state.environments, (e) => e.name, ['environments'], 'environment name');
  const environments = new Set(state.environments.map((e) => e.name));
  unique(state.projects, (p) => p.id, ['projects'], 'project id');
  state.projects.forEach((project, i) => {
    unique(project.environments, (e) => e.name, ['projects', i, 'environments'], 'environment name within the project');
    project.environments.forEach((config, j) => {
      if (!environments.has(config.name)) {
        fail(['projects', i, 'environments', j, 'name'], `the name of an environment in /environments (${[...environments].join(', ')})`, JSON.stringify(config.name));
      }
    });
  });
  unique(state.serviceAccounts, (a) => a.id, ['serviceAccounts'], 'service account id');
  state.serviceAccounts.forEach((account, i) => unique(account.tokens, (t) => t.id, ['serviceAccounts', i, 'tokens'], 'token id within the service account'));
}
