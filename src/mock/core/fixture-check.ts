import { ContractError, compileValidator, createAjv, pointerOf, pointsIntoSecret, redactSecrets, resolvePointer, type Contract, type JsonSchema, type Validate } from '../../contract/neutral.ts';
import fixtureSchema from '../../../fixtures/fixture.schema.json' with { type: 'json' };
import { jsonStructureProblem } from './json-structure.ts';
import type { MockState } from './state.ts';

/** How fixture errors name the files a reader opens: the spec (for the value schemas it lends) and the fixture schema. */
export interface FixtureLabels {
  /** @default contract.specFile */
  spec?: string;
  /** @default 'fixtures/fixture.schema.json' */
  fixtureSchema?: string;
}

/** Compiled once per contract and labelling. */
const validators = new WeakMap<Contract, Map<string, Validate>>();

/** The id under which the spec's components/schemas are lent to the fixture schema (see its `$ref`s). */
const SPEC_SCHEMAS_ID = 'urn:flag-admin:spec';

/** The property of an API key record holding the key: with password-format properties, never shown in an error. */
const API_KEY_PROPERTY = 'key';

/**
 * Checks a state value: JSON Schema first (fixtures/fixture.schema.json, whose value schemas are
 * the spec's own), then the references between records. A bad one throws a ContractError naming
 * `file`, the JSON pointer and what was expected, and never quoting a key or the OIDC secret.
 * Runtime-neutral: the fixture-file adapter and the control API's state replacement both call it.
 */
export function checkFixtures(contract: Contract, value: unknown, file: string, labels: FixtureLabels = {}): MockState {
  // First: the validator recurses, and an own `__proto__` key would reach whatever copies the state.
  const structure = jsonStructureProblem(value);
  if (structure) throw new ContractError('FIXTURE_INVALID', { file, ...structure });
  const [violation] = fixtureValidator(contract, labels)(value);
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

/** A value as an error message quotes it: JSON, cut at 80 characters (what was sent may be a whole MiB). */
export function excerpt(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function fixtureValidator(contract: Contract, labels: FixtureLabels): Validate {
  const spec = labels.spec ?? contract.specFile;
  const schemaFile = labels.fixtureSchema ?? 'fixtures/fixture.schema.json';
  let byLabels = validators.get(contract);
  if (!byLabels) validators.set(contract, (byLabels = new Map()));
  let validate = byLabels.get(`${spec}\n${schemaFile}`);
  if (!validate) {
    const ajv = createAjv();
    const components = contract.document.components as JsonSchema | undefined;
    ajv.addSchema({ $id: SPEC_SCHEMAS_ID, $defs: components?.schemas ?? {} });
    // Point at the file a reader opens: the spec for the value schemas it lends, else the fixture schema.
    const specSchemas = `${spec}#/components/schemas/`;
    const fixtureSchemaLabel = `${schemaFile}#`;
    validate = compileValidator(ajv, structuredClone(fixtureSchema) as JsonSchema, (schemaPath) =>
      schemaPath.startsWith(`${SPEC_SCHEMAS_ID}#/$defs/`) ? specSchemas + schemaPath.slice(`${SPEC_SCHEMAS_ID}#/$defs/`.length) : fixtureSchemaLabel + schemaPath,
    );
    byLabels.set(`${spec}\n${schemaFile}`, validate);
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
  state.apiKeys.forEach((k, i) => {
    k.permissions.forEach((permission, j) => {
      if (permission !== '*' && !operationIds.has(permission)) {
        fail(['apiKeys', i, 'permissions', j], `"*" or an operationId of the spec (${[...operationIds].join(', ')})`, JSON.stringify(permission));
      }
    });
    k.answers?.forEach((answer, j) => {
      const operation = contract.operations.find((o) => o.operationId === answer.operationId);
      if (!operation) fail(['apiKeys', i, 'answers', j, 'operationId'], `an operationId of the spec (${[...operationIds].join(', ')})`, JSON.stringify(answer.operationId));
      for (const [field, name] of [...Object.keys(answer.params ?? {}).map((n): [string, string] => ['params', n]), ...Object.keys(answer.rawParams ?? {}).map((n): [string, string] => ['rawParams', n])]) {
        if (!operation!.pathParams.includes(name)) fail(['apiKeys', i, 'answers', j, field, name], `a path parameter of ${answer.operationId} (${operation!.pathParams.join(', ') || 'it has none'})`, JSON.stringify(name));
      }
    });
  });
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
