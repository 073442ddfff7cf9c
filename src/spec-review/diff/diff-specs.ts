import { pointerOf } from '../../contract/json-pointer.ts';
import { HTTP_METHODS } from '../../contract/operation.ts';
import type { JsonSchema } from '../../contract/index.ts';
import { resolveRefs } from '../resolve-refs.ts';
import type { SpecSource } from '../spec-source.ts';
import { upgradeOpenApi30 } from '../upgrade-openapi-30.ts';
import { ChangeRecorder, type Change, type SpecVersion } from './change-recorder.ts';
import { compareSchemas, show, type SchemaScope } from './compare-schemas.ts';
import { SEVERITY_ORDER } from './diff-rules.ts';
import { canonical } from './canonical-json.ts';
import { assertComparable } from './comparable-shape.ts';
import { reportUnclassified } from './unclassified-changes.ts';

export interface DiffResult {
  old: string;
  new: string;
  /** The `openapi` versions of OLD and NEW; a 3.0 document is compared as its 3.1 equivalent. */
  openapi: { old: string; new: string };
  changes: Change[];
  /** Count of changes breaking for clients and for servers. */
  breaking: { client: number; server: number };
}

/** Every change from OLD to NEW, classified for clients and servers (rules in diff-rules.ts). */
export async function diffSpecs(oldSource: SpecSource, newSource: SpecSource): Promise<DiffResult> {
  const oldVersion = await dereferenced(oldSource);
  const newVersion = await dereferenced(newSource);
  const recorder = new ChangeRecorder(oldVersion, newVersion);
  compareOperations(recorder, oldVersion.dereferenced, newVersion.dereferenced);
  if (oldVersion.dereferenced.info && newVersion.dereferenced.info) {
    const before = (oldVersion.dereferenced.info as JsonSchema).version;
    const after = (newVersion.dereferenced.info as JsonSchema).version;
    if (before !== after) recorder.record('version-changed', `info.version ${show(before)} → ${show(after)}`, '/info/version', '/info/version');
  }
  reportUnclassified(recorder, oldVersion.dereferenced, newVersion.dereferenced);
  const changes = [...recorder.changes].sort(
    (a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.ruleId.localeCompare(b.ruleId) || a.old.pointer.localeCompare(b.old.pointer) || a.new.pointer.localeCompare(b.new.pointer),
  );
  return {
    old: oldSource.file,
    new: newSource.file,
    openapi: { old: String(oldSource.document.openapi), new: String(newSource.document.openapi) },
    changes,
    breaking: { client: changes.filter((c) => c.client === 'breaking').length, server: changes.filter((c) => c.server === 'breaking').length },
  };
}

/**
 * Checked for the shapes the diff reads, dereferenced, and read as 3.1: a 3.0 document's schemas
 * are upgraded after dereferencing, so those pulled in from other files are upgraded too. The
 * `openapi` field names the document's format, not the API: a 3.0 and a 3.1 edition of one API
 * differ only where the API does (the result still says which formats were compared).
 */
async function dereferenced(source: SpecSource): Promise<SpecVersion> {
  const document = (await resolveRefs(source, 'dereference')) as JsonSchema;
  assertComparable(source, document);
  if (source.openapi === '3.0') upgradeOpenApi30(document);
  delete document.openapi;
  // RFC 9110 §11.1: an HTTP auth scheme's name is case-insensitive; `Bearer` and `bearer` are one scheme.
  for (const scheme of Object.values(((document.components as JsonSchema | undefined)?.securitySchemes ?? {}) as Record<string, JsonSchema>)) {
    if (scheme.type === 'http' && typeof scheme.scheme === 'string') scheme.scheme = scheme.scheme.toLowerCase();
  }
  return { source, dereferenced: document };
}

interface OperationAt {
  path: string;
  method: string;
  pointer: string;
  operation: JsonSchema;
  pathItem: JsonSchema;
}

/** Operations keyed by method and path shape: renaming a path parameter keeps the operation. */
function operationsOf(document: JsonSchema): Map<string, OperationAt> {
  const operations = new Map<string, OperationAt>();
  for (const [path, pathItem] of Object.entries((document.paths ?? {}) as Record<string, JsonSchema>)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem?.[method] as JsonSchema | undefined;
      if (!operation) continue;
      operations.set(`${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`, { path, method, pointer: pointerOf(['paths', path, method]), operation, pathItem });
    }
  }
  return operations;
}

function compareOperations(recorder: ChangeRecorder, oldDoc: JsonSchema, newDoc: JsonSchema): void {
  const before = operationsOf(oldDoc);
  const after = operationsOf(newDoc);
  for (const [key, old] of before) {
    const label = `${old.method.toUpperCase()} ${old.path}`;
    const now = after.get(key);
    if (!now) {
      recorder.record('operation-removed', `${label} removed`, old.pointer, '/paths', label, 'old');
      continue;
    }
    if (old.operation.operationId !== now.operation.operationId) {
      recorder.record('operation-id-changed', `operationId ${show(old.operation.operationId)} → ${show(now.operation.operationId)}`, `${old.pointer}/operationId`, `${now.pointer}/operationId`, label);
    }
    if (!old.operation.deprecated && now.operation.deprecated) recorder.record('operation-deprecated', `${label} is deprecated`, old.pointer, `${now.pointer}/deprecated`, label, 'new');
    compareParameters(recorder, old, now, label);
    compareRequestBodies(recorder, old, now, label);
    compareResponses(recorder, old, now, label);
    compareSecurity(recorder, oldDoc, newDoc, old, now, label);
  }
  for (const [key, now] of after) {
    if (!before.has(key)) recorder.record('operation-added', `${now.method.toUpperCase()} ${now.path} added`, '/paths', now.pointer, `${now.method.toUpperCase()} ${now.path}`, 'new');
  }
}

interface ParameterAt {
  parameter: JsonSchema;
  pointer: string;
}

/**
 * The operation's parameters with the path item's (OAS 3.1 §4.8.9.1: the operation's win), keyed
 * by location and name; path parameters by their position in the path, so a rename is a rename.
 */
function parametersOf(at: OperationAt): Map<string, ParameterAt> {
  const parameters = new Map<string, ParameterAt>();
  const templated = [...at.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const add = (list: unknown, base: string) =>
    ((list ?? []) as JsonSchema[]).forEach((parameter, index) => {
      const key = parameter.in === 'path' ? `path #${templated.indexOf(String(parameter.name))}` : `${String(parameter.in)} ${String(parameter.name)}`;
      parameters.set(key, { parameter, pointer: `${base}/parameters/${index}` });
    });
  add(at.pathItem.parameters, pointerOf(['paths', at.path]));
  add(at.operation.parameters, at.pointer);
  return parameters;
}

function compareParameters(recorder: ChangeRecorder, old: OperationAt, now: OperationAt, label: string): void {
  const before = parametersOf(old);
  const after = parametersOf(now);
  const scope: SchemaScope = { recorder, context: 'request', operation: label, seen: new WeakMap() };
  const name = (p: JsonSchema) => `${String(p.in)} parameter "${String(p.name)}"`;
  for (const [key, { parameter, pointer }] of before) {
    const match = after.get(key);
    if (!match) {
      recorder.record('parameter-removed', `${name(parameter)} removed`, pointer, `${now.pointer}`, label, 'old');
      continue;
    }
    if (parameter.name !== match.parameter.name) recorder.record('parameter-renamed', `${name(parameter)} renamed "${String(match.parameter.name)}"`, `${pointer}/name`, `${match.pointer}/name`, label);
    if (!parameter.required && match.parameter.required) recorder.record('parameter-became-required', `${name(parameter)} becomes required`, pointer, `${match.pointer}/required`, label);
    if (parameter.required && !match.parameter.required) recorder.record('parameter-became-optional', `${name(parameter)} becomes optional`, `${pointer}/required`, match.pointer, label);
    compareSchemas(scope, parameter.schema, match.parameter.schema, `${pointer}/schema`, `${match.pointer}/schema`);
  }
  for (const [key, { parameter, pointer }] of after) {
    if (before.has(key)) continue;
    recorder.record(parameter.required ? 'parameter-added-required' : 'parameter-added-optional', `${name(parameter)} added${parameter.required ? ' (required)' : ''}`, old.pointer, pointer, label, 'new');
  }
}

function compareRequestBodies(recorder: ChangeRecorder, old: OperationAt, now: OperationAt, label: string): void {
  const before = old.operation.requestBody as JsonSchema | undefined;
  const after = now.operation.requestBody as JsonSchema | undefined;
  const oldAt = `${old.pointer}/requestBody`;
  const newAt = `${now.pointer}/requestBody`;
  if (!before && !after) return;
  if (!before) return recorder.record('request-body-added', `a request body is added${after!.required ? ' (required)' : ''}`, old.pointer, newAt, label, 'new');
  if (!after) return recorder.record('request-body-removed', 'the request body is removed', oldAt, now.pointer, label, 'old');
  if (!before.required && after.required) recorder.record('request-body-became-required', 'the request body becomes required', oldAt, `${newAt}/required`, label);
  if (before.required && !after.required) recorder.record('request-body-became-optional', 'the request body becomes optional', `${oldAt}/required`, newAt, label);
  compareContent(recorder, 'request', before, after, oldAt, newAt, label);
}

function compareResponses(recorder: ChangeRecorder, old: OperationAt, now: OperationAt, label: string): void {
  const before = (old.operation.responses ?? {}) as Record<string, JsonSchema>;
  const after = (now.operation.responses ?? {}) as Record<string, JsonSchema>;
  for (const status of Object.keys(before)) {
    const oldAt = `${old.pointer}/responses/${pointerOf([status]).slice(1)}`;
    const newAt = `${now.pointer}/responses/${pointerOf([status]).slice(1)}`;
    if (!(status in after)) {
      recorder.record('response-status-removed', `response ${status} removed`, oldAt, `${now.pointer}/responses`, label, 'old');
      continue;
    }
    const hadBody = Object.keys(before[status]!.content ?? {}).length > 0;
    const hasBody = Object.keys(after[status]!.content ?? {}).length > 0;
    if (hadBody && !hasBody) recorder.record('response-body-removed', `response ${status} no longer has a body`, `${oldAt}/content`, newAt, label, 'old');
    else if (!hadBody && hasBody) recorder.record('response-body-added', `response ${status} gains a body`, oldAt, `${newAt}/content`, label, 'new');
    else compareContent(recorder, 'response', before[status]!, after[status]!, oldAt, newAt, label, status);
  }
  for (const status of Object.keys(after)) {
    if (!(status in before)) recorder.record('response-status-added', `response ${status} added`, `${old.pointer}/responses`, `${now.pointer}/responses/${pointerOf([status]).slice(1)}`, label, 'new');
  }
}

function compareContent(recorder: ChangeRecorder, context: 'request' | 'response', before: JsonSchema, after: JsonSchema, oldAt: string, newAt: string, label: string, status?: string): void {
  const oldContent = (before.content ?? {}) as Record<string, JsonSchema>;
  const newContent = (after.content ?? {}) as Record<string, JsonSchema>;
  const what = status ? `response ${status}` : 'request body';
  for (const mediaType of Object.keys(oldContent)) {
    const oldMedia = `${oldAt}/content${pointerOf([mediaType])}`;
    const newMedia = `${newAt}/content${pointerOf([mediaType])}`;
    if (!(mediaType in newContent)) {
      recorder.record(`${context}-media-type-removed`, `${what}: media type ${mediaType} removed`, oldMedia, `${newAt}/content`, label, 'old');
      continue;
    }
    const scope: SchemaScope = { recorder, context, operation: label, seen: new WeakMap() };
    compareSchemas(scope, oldContent[mediaType]!.schema, newContent[mediaType]!.schema, `${oldMedia}/schema`, `${newMedia}/schema`);
  }
  for (const mediaType of Object.keys(newContent)) {
    if (!(mediaType in oldContent)) recorder.record(`${context}-media-type-added`, `${what}: media type ${mediaType} added`, `${oldAt}/content`, `${newAt}/content${pointerOf([mediaType])}`, label, 'new');
  }
}

/**
 * Security is a list of alternatives, each a set of schemes (OAS 3.1 §4.8.30); `[]` or `{}`
 * means no authentication. Alternatives are compared as sets, and each scheme in use by its
 * definition.
 */
function compareSecurity(recorder: ChangeRecorder, oldDoc: JsonSchema, newDoc: JsonSchema, old: OperationAt, now: OperationAt, label: string): void {
  const effective = (doc: JsonSchema, at: OperationAt) =>
    at.operation.security !== undefined ? { list: at.operation.security as JsonSchema[], pointer: `${at.pointer}/security` } : { list: (doc.security ?? []) as JsonSchema[], pointer: doc.security ? '/security' : at.pointer };
  const before = effective(oldDoc, old);
  const after = effective(newDoc, now);
  const alternatives = (list: JsonSchema[]) => new Set((list.length === 0 ? [{}] : list).map(signature));
  const oldAlternatives = alternatives(before.list);
  const newAlternatives = alternatives(after.list);
  for (const alternative of oldAlternatives) {
    if (!newAlternatives.has(alternative)) recorder.record('security-requirement-removed', `security alternative ${alternative} removed`, before.pointer, after.pointer, label);
  }
  for (const alternative of newAlternatives) {
    if (!oldAlternatives.has(alternative)) recorder.record('security-requirement-added', `security alternative ${alternative} added`, before.pointer, after.pointer, label);
  }
  const schemes = (doc: JsonSchema) => ((doc.components as JsonSchema | undefined)?.securitySchemes ?? {}) as Record<string, JsonSchema>;
  const used = new Set([...before.list, ...after.list].flatMap((requirement) => Object.keys(requirement)));
  for (const name of used) {
    const oldScheme = schemes(oldDoc)[name];
    const newScheme = schemes(newDoc)[name];
    if (!oldScheme || !newScheme) continue;
    const oldDefinition = definitionOf(oldScheme);
    const newDefinition = definitionOf(newScheme);
    if (canonical(oldDefinition) !== canonical(newDefinition)) {
      const at = pointerOf(['components', 'securitySchemes', name]);
      recorder.record('security-scheme-changed', `security scheme "${name}" ${canonical(oldDefinition)} → ${canonical(newDefinition)}`, at, at, label);
    }
  }
}

/** What a scheme requires of a request: everything but its description and extensions. */
function definitionOf(scheme: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(scheme).filter(([key]) => key !== 'description' && !key.startsWith('x-')));
}

function signature(requirement: JsonSchema): string {
  const names = Object.keys(requirement).sort();
  return names.length === 0 ? '(none)' : names.map((name) => `${name}${(requirement[name] as string[]).length ? `[${[...(requirement[name] as string[])].sort().join(' ')}]` : ''}`).join(' + ');
}
