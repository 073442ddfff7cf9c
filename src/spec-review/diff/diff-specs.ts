import { pointerOf } from '../../contract/json-pointer.ts';
import { HTTP_METHODS } from '../../contract/operation.ts';
import type { JsonSchema } from '../../contract/index.ts';
import { resolveRefs } from '../resolve-refs.ts';
import type { SpecSource } from '../spec-source.ts';
import { lowercaseHttpSchemes } from '../lowercase-http-schemes.ts';
import { upgradeOpenApi30 } from '../upgrade-openapi-30.ts';
import { ChangeRecorder, type Change, type SpecVersion } from './change-recorder.ts';
import { compareSchemas, show, type SchemaScope } from './compare-schemas.ts';
import { SEVERITY_ORDER } from './diff-rules.ts';
import { canonical, shapeKey } from './canonical-json.ts';
import { assertComparable, type Tolerated } from './comparable-shape.ts';
import { mergeAllOf } from './merge-all-of.ts';
import { reportUnclassified } from './unclassified-changes.ts';

export interface DiffResult {
  old: string;
  new: string;
  /** The `openapi` versions of OLD and NEW; a 3.0 document is compared as its 3.1 equivalent. */
  openapi: { old: string; new: string };
  changes: Change[];
  /** Count of changes breaking for clients and for servers. */
  breaking: { client: number; server: number };
  /** Where either document was read leniently (a field written empty), OLD's first; absent when nowhere. */
  tolerated?: Tolerated[];
}

export interface DiffOptions {
  /** The day a sunset date is judged against; a parameter so a diff in CI is reproducible. Default: now. */
  asOf?: Date;
}

/** Every change from OLD to NEW, classified for clients and servers (rules in diff-rules.ts). */
export async function diffSpecs(oldSource: SpecSource, newSource: SpecSource, options: DiffOptions = {}): Promise<DiffResult> {
  return diffVersions(await readVersion(oldSource), await readVersion(newSource), options);
}

/** The diff of two versions already read: a caller diffing the same two both ways (compare) dereferences each once. */
export function diffVersions(oldVersion: SpecVersion, newVersion: SpecVersion, { asOf = new Date() }: DiffOptions = {}): DiffResult {
  const [oldSource, newSource] = [oldVersion.source, newVersion.source];
  const recorder = new ChangeRecorder(oldVersion, newVersion);
  compareOperations(recorder, oldVersion.dereferenced, newVersion.dereferenced, asOf);
  if (oldVersion.dereferenced.info && newVersion.dereferenced.info) {
    const before = (oldVersion.dereferenced.info as JsonSchema).version;
    const after = (newVersion.dereferenced.info as JsonSchema).version;
    if (before !== after) recorder.record('version-changed', `info.version ${show(before)} → ${show(after)}`, '/info/version', '/info/version');
  }
  reportUnclassified(recorder, oldVersion.dereferenced, newVersion.dereferenced);
  // By impact on clients first, then on servers: an operation added (breaking only servers of OLD)
  // comes after every change a client of OLD meets.
  const changes = [...recorder.changes].sort(
    (a, b) =>
      SEVERITY_ORDER.indexOf(a.client) - SEVERITY_ORDER.indexOf(b.client) ||
      SEVERITY_ORDER.indexOf(a.server) - SEVERITY_ORDER.indexOf(b.server) ||
      a.ruleId.localeCompare(b.ruleId) ||
      a.old.pointer.localeCompare(b.old.pointer) ||
      a.new.pointer.localeCompare(b.new.pointer),
  );
  return {
    old: oldSource.file,
    new: newSource.file,
    openapi: { old: String(oldSource.document.openapi), new: String(newSource.document.openapi) },
    changes,
    breaking: { client: changes.filter((c) => c.client === 'breaking').length, server: changes.filter((c) => c.server === 'breaking').length },
    ...(oldVersion.tolerated || newVersion.tolerated ? { tolerated: [...(oldVersion.tolerated ?? []), ...(newVersion.tolerated ?? [])] } : {}),
  };
}

/**
 * Checked for the shapes the diff reads, dereferenced, and read as 3.1: a 3.0 document's schemas
 * are upgraded after dereferencing, so those pulled in from other files are upgraded too. The
 * `openapi` field names the document's format, not the API: a 3.0 and a 3.1 edition of one API
 * differ only where the API does (the result still says which formats were compared).
 */
export async function readVersion(source: SpecSource): Promise<SpecVersion> {
  const document = (await resolveRefs(source, 'dereference')) as JsonSchema;
  const tolerated = assertComparable(source, document);
  if (source.openapi === '3.0') upgradeOpenApi30(document);
  delete document.openapi;
  lowercaseHttpSchemes(document);
  return { source, dereferenced: document, ...(tolerated.length > 0 ? { tolerated } : {}) };
}

interface OperationAt {
  path: string;
  method: string;
  pointer: string;
  operation: JsonSchema;
  pathItem: JsonSchema;
  /** How reports name it: `GET /pets/{petId}`, `POST webhook newPet`, `POST /pets callback onAdded {$request.body#/url}`. */
  label: string;
  /** A webhook or callback: the API calls the client, so the audiences of what is inside swap. */
  mirrored: boolean;
}

/**
 * Operations keyed by method and path shape (renaming a path parameter keeps the operation): those
 * of paths, of webhooks (OAS 3.1 §4.8.1, keyed by name) and of the callbacks each operation declares.
 */
function operationsOf(document: JsonSchema): Map<string, OperationAt> {
  const operations = new Map<string, OperationAt>();
  const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
  const addPathItems = (pathItems: unknown, base: string[], keyOf: (name: string) => string, labelOf: (name: string, method: string) => string, mirrored: boolean) => {
    for (const [name, pathItem] of Object.entries((pathItems ?? {}) as Record<string, JsonSchema>)) {
      for (const method of HTTP_METHODS) {
        const operation = pathItem?.[method] as JsonSchema | undefined;
        if (!operation) continue;
        const pointer = pointerOf([...base, name, method]);
        const at: OperationAt = { path: name, method, pointer, operation, pathItem, label: labelOf(name, method.toUpperCase()), mirrored };
        operations.set(`${method.toUpperCase()} ${keyOf(name)}`, at);
        for (const [callback, expressions] of Object.entries((operation.callbacks ?? {}) as Record<string, unknown>)) {
          addPathItems(expressions, [...base, name, method, 'callbacks', callback], (expression) => `${keyOf(name)} ${method} callback ${callback} ${expression}`, (expression, m) => `${m} ${at.label.split(' ').slice(1).join(' ')} callback ${callback} ${expression}`, true);
        }
      }
    }
  };
  addPathItems(document.paths, ['paths'], shape, (path, method) => `${method} ${path}`, false);
  addPathItems(document.webhooks, ['webhooks'], (name) => `webhook ${name}`, (name, method) => `${method} webhook ${name}`, true);
  return operations;
}

function compareOperations(recorder: ChangeRecorder, oldDoc: JsonSchema, newDoc: JsonSchema, asOf: Date): void {
  const before = operationsOf(oldDoc);
  const after = operationsOf(newDoc);
  for (const [key, old] of before) {
    const label = old.label;
    const now = after.get(key);
    if (!now) {
      recordRemoval(recorder, old, asOf);
      continue;
    }
    if (old.operation.operationId !== now.operation.operationId) {
      recorder.record('operation-id-changed', `operationId ${show(old.operation.operationId)} → ${show(now.operation.operationId)}`, `${old.pointer}/operationId`, `${now.pointer}/operationId`, label);
    }
    if (!old.operation.deprecated && now.operation.deprecated) recorder.record('operation-deprecated', `${label} is deprecated`, old.pointer, `${now.pointer}/deprecated`, label, 'new');
    compareSunset(recorder, old, now, label);
    recorder.mirrored = old.mirrored;
    compareParameters(recorder, old, now, label);
    compareRequestBodies(recorder, old, now, label);
    compareResponses(recorder, old, now, label);
    compareSecurity(recorder, oldDoc, newDoc, old, now, label);
    recorder.mirrored = false;
  }
  for (const [key, now] of after) {
    if (!before.has(key)) recorder.record('operation-added', `${now.label} added`, containerOf(now.pointer), now.pointer, now.label, 'new');
  }
}

/**
 * Removing a deprecated operation after its sunset date is the end of a published schedule, not
 * a surprise. The date is read from the operation's `x-sunset` extension, else from a `Sunset`
 * response header (RFC 8594) that the operation documents, in its example, default or description.
 */
function recordRemoval(recorder: ChangeRecorder, old: OperationAt, asOf: Date): void {
  const label = old.label;
  if (!old.operation.deprecated) return void recorder.record('operation-removed', `${label} removed`, old.pointer, containerOf(old.pointer), label, 'old');
  const sunset = sunsetOf(old);
  if (!sunset) return void recorder.record('operation-removed-deprecated', `${label} removed (deprecated, no sunset date in x-sunset or a Sunset header)`, old.pointer, containerOf(old.pointer), label, 'old');
  const day = sunset.date.toISOString().slice(0, 10);
  if (sunset.date.getTime() <= asOf.getTime()) return void recorder.record('operation-removed-after-sunset', `${label} removed after its sunset date ${day} (${sunset.from})`, old.pointer, containerOf(old.pointer), label, 'old');
  recorder.record('operation-removed', `${label} removed before its sunset date ${day} (${sunset.from})`, old.pointer, containerOf(old.pointer), label, 'old');
}

/**
 * The `x-sunset` of a deprecated operation is its announced end, which this diff itself reads
 * (recordRemoval): losing it leaves clients without the date, moving it changes their plan.
 */
function compareSunset(recorder: ChangeRecorder, old: OperationAt, now: OperationAt, label: string): void {
  const [before, after] = [old.operation['x-sunset'], now.operation['x-sunset']];
  if (before === undefined || !old.operation.deprecated || String(before) === String(after)) return;
  if (after === undefined) recorder.record('operation-sunset-removed', `${label}: x-sunset ${show(before)} removed`, `${old.pointer}/x-sunset`, now.pointer, label, 'old');
  else recorder.record('operation-sunset-changed', `${label}: x-sunset ${show(before)} → ${show(after)}`, `${old.pointer}/x-sunset`, `${now.pointer}/x-sunset`, label);
}

/** Where an operation's path item sits: `/paths`, `/webhooks`, or an operation's callback. */
function containerOf(operationPointer: string): string {
  return operationPointer.split('/').slice(0, -2).join('/');
}

function sunsetOf(at: OperationAt): { date: Date; from: string } | undefined {
  const extension = dateIn(at.operation['x-sunset']);
  if (extension) return { date: extension, from: 'x-sunset' };
  for (const [status, response] of Object.entries((at.operation.responses ?? {}) as Record<string, JsonSchema>)) {
    for (const [name, header] of Object.entries((response?.headers ?? {}) as Record<string, JsonSchema>)) {
      if (name.toLowerCase() !== 'sunset' || !header) continue;
      const schema = (header.schema ?? {}) as JsonSchema;
      const date = [header.example, schema.example, ...((schema.examples as unknown[]) ?? []), schema.default, schema.const, header.description].map(dateIn).find(Boolean);
      if (date) return { date, from: `Sunset header of response ${status}` };
    }
  }
  return undefined;
}

/** A date in a value: an ISO 8601 date or date-time, or an HTTP-date (`Sat, 31 Dec 2022 23:59:59 GMT`), alone or in prose. */
function dateIn(value: unknown): Date | undefined {
  if (value instanceof Date) return value;
  if (typeof value !== 'string') return undefined;
  const found = value.match(/\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?|[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/);
  if (!found) return undefined;
  const time = Date.parse(found[0]);
  return Number.isNaN(time) ? undefined : new Date(time);
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
      // Header names are case-insensitive (RFC 9110 §5.1): X-Id and x-id are one parameter.
      const name = parameter.in === 'header' ? String(parameter.name).toLowerCase() : String(parameter.name);
      const key = parameter.in === 'path' ? `path #${templated.indexOf(String(parameter.name))}` : `${String(parameter.in)} ${name}`;
      parameters.set(key, { parameter, pointer: `${base}/parameters/${index}` });
    });
  add(at.pathItem.parameters, pointerOf(['paths', at.path]));
  add(at.operation.parameters, at.pointer);
  return parameters;
}

/** How a parameter is written when the spec does not say (OAS 3.1 §4.8.12.4): compared as written or defaulted. */
function serializationOf(parameter: JsonSchema, scalar = false): string {
  const style = parameter.style ?? (parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple');
  const explode = scalar ? 'n/a' : (parameter.explode ?? style === 'form');
  const media = Object.keys((parameter.content ?? {}) as object).join(',');
  return `style=${String(style)} explode=${String(explode)} allowReserved=${Boolean(parameter.allowReserved)} allowEmptyValue=${Boolean(parameter.allowEmptyValue)}${media ? ` content=${media}` : ''}`;
}

/** Whether a parameter's values are only ever scalars: a `type` without array or object (allOf merged). */
function isScalar(schema: unknown): boolean {
  const s = (mergeAllOf(schema) ?? schema) as JsonSchema | undefined;
  if (!s || typeof s !== 'object' || s.type === undefined || s.anyOf || s.oneOf) return false;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return !types.includes('array') && !types.includes('object');
}

/** A parameter's schema: `schema`, or that of its one `content` media type. */
function parameterSchema(parameter: JsonSchema, pointer: string): { schema: unknown; at: string } {
  if (parameter.schema !== undefined || !parameter.content) return { schema: parameter.schema, at: `${pointer}/schema` };
  const [mediaType, media] = Object.entries(parameter.content as Record<string, JsonSchema>)[0] ?? [];
  return { schema: media?.schema, at: `${pointer}/content${pointerOf([mediaType ?? ''])}/schema` };
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
    if (parameter.in === 'header' && parameter.name !== match.parameter.name) recorder.explain(`${pointer}/name`, `${match.pointer}/name`);
    else if (parameter.name !== match.parameter.name) recorder.record('parameter-renamed', `${name(parameter)} renamed "${String(match.parameter.name)}"`, `${pointer}/name`, `${match.pointer}/name`, label);
    if (!parameter.required && match.parameter.required) recorder.record('parameter-became-required', `${name(parameter)} becomes required`, pointer, `${match.pointer}/required`, label);
    if (parameter.required && !match.parameter.required) recorder.record('parameter-became-optional', `${name(parameter)} becomes optional`, `${pointer}/required`, match.pointer, label);
    // `explode` only changes how an array or an object is written (OAS 3.1 §4.8.12.4): for a value
    // that is a scalar on both sides, `?q=a` is written the same either way.
    const scalar = isScalar(parameterSchema(parameter, pointer).schema) && isScalar(parameterSchema(match.parameter, match.pointer).schema);
    const [oldWay, newWay] = [serializationOf(parameter, scalar), serializationOf(match.parameter, scalar)];
    if (oldWay !== newWay) recorder.record('parameter-serialization-changed', `${name(parameter)}: ${oldWay} → ${newWay}`, pointer, match.pointer, label);
    else for (const keyword of ['style', 'explode', 'allowReserved', 'allowEmptyValue']) recorder.explain(`${pointer}/${keyword}`, `${match.pointer}/${keyword}`);
    // Moved (between the path item and the operation, or within the list): compared here, not by position.
    if (pointer !== match.pointer) recorder.explain(pointer, match.pointer);
    const oldSchema = parameterSchema(parameter, pointer);
    const newSchema = parameterSchema(match.parameter, match.pointer);
    // Without `content`, a parameter's value is text on the wire (OAS 3.1 §4.8.12.4): `?limit=5` is
    // as good to a string parameter as to an integer one, and `?tag=a` to an exploded form array.
    const wire = parameter.content || match.parameter.content ? undefined : { name: String(parameter.name), in: String(parameter.in) };
    compareSchemas({ ...scope, wire }, oldSchema.schema, newSchema.schema, oldSchema.at, newSchema.at);
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
  if (!before) return void recorder.record('request-body-added', `a request body is added${after!.required ? ' (required)' : ''}`, old.pointer, newAt, label, 'new');
  if (!after) return void recorder.record('request-body-removed', 'the request body is removed', oldAt, now.pointer, label, 'old');
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
      // An error answer that no longer comes breaks no client; a success that no longer comes does.
      const error = status === 'default' || /^[45]/.test(status);
      recorder.record(error ? 'response-error-status-removed' : 'response-status-removed', `response ${status} removed`, oldAt, `${now.pointer}/responses`, label, 'old');
      continue;
    }
    compareHeaders(recorder, before[status]!, after[status]!, oldAt, newAt, label, status);
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

/** Response headers, by case-insensitive name (RFC 9110 §5.1); `Content-Type` is the media type's business. */
function compareHeaders(recorder: ChangeRecorder, before: JsonSchema, after: JsonSchema, oldAt: string, newAt: string, label: string, status: string): void {
  const byName = (response: JsonSchema) => new Map(Object.entries((response.headers ?? {}) as Record<string, JsonSchema>).filter(([name]) => name.toLowerCase() !== 'content-type').map(([name, header]) => [name.toLowerCase(), { name, header }]));
  const oldHeaders = byName(before);
  const newHeaders = byName(after);
  const scope: SchemaScope = { recorder, context: 'response', operation: label, seen: new WeakMap() };
  for (const [key, { name, header }] of oldHeaders) {
    const oldHeader = `${oldAt}/headers${pointerOf([name])}`;
    const match = newHeaders.get(key);
    if (!match) {
      recorder.record('response-header-removed', `response ${status}: header ${name} removed`, oldHeader, `${newAt}`, label, 'old');
      continue;
    }
    const newHeader = `${newAt}/headers${pointerOf([match.name])}`;
    if (header.required && !match.header.required) recorder.record('response-header-became-optional', `response ${status}: header ${name} becomes optional`, `${oldHeader}/required`, newHeader, label);
    if (!header.required && match.header.required) recorder.record('response-header-became-required', `response ${status}: header ${name} becomes required`, oldHeader, `${newHeader}/required`, label);
    const [oldWay, newWay] = [serializationOf(header), serializationOf(match.header)];
    if (oldWay !== newWay) recorder.record('parameter-serialization-changed', `response ${status}: header ${name}: ${oldWay} → ${newWay}`, oldHeader, newHeader, label);
    else for (const keyword of ['style', 'explode', 'allowReserved', 'allowEmptyValue']) recorder.explain(`${oldHeader}/${keyword}`, `${newHeader}/${keyword}`);
    const oldSchema = parameterSchema(header, oldHeader);
    const newSchema = parameterSchema(match.header, newHeader);
    // A header's value is text, as a parameter's (OAS 3.1 §4.8.21).
    const wire = header.content || match.header.content ? undefined : { name, in: 'header' };
    compareSchemas({ ...scope, wire }, oldSchema.schema, newSchema.schema, oldSchema.at, newSchema.at);
  }
  for (const [key, { name }] of newHeaders) {
    if (!oldHeaders.has(key)) recorder.record('response-header-added', `response ${status}: header ${name} added`, oldAt, `${newAt}/headers${pointerOf([name])}`, label, 'new');
  }
}

/** A media type's essence (RFC 9110 §8.3.1): type/subtype, case-insensitive, without parameters. */
const essence = (mediaType: string) => mediaType.split(';')[0]!.trim().toLowerCase();

/** Whether a media range (`*\/*`, `image/*`, or a type) includes a media type. */
function includes(range: string, mediaType: string): boolean {
  const [rangeType, rangeSub] = essence(range).split('/');
  const [type, sub] = essence(mediaType).split('/');
  return (rangeType === '*' || rangeType === type) && (rangeSub === '*' || rangeSub === sub);
}

/** Whether `specific` is `general` with a structured syntax suffix naming it: `application/problem+json` of `application/json` (RFC 6839 §3.1, RFC 6838 §4.2.8). */
function specializes(specific: string, general: string): boolean {
  const [type, sub] = essence(specific).split('/');
  const [generalType, syntax] = essence(general).split('/');
  return type === generalType && sub !== undefined && syntax !== undefined && sub.endsWith(`+${syntax}`) && !syntax.includes('+');
}

/**
 * Media types paired by essence, so `application/json` and `application/json; charset=utf-8` are
 * one. In a request, a media type of OLD that a range of NEW includes is still accepted (the range
 * itself is reported as added, for servers); in a response a range is no promise, so it pairs nothing.
 */
function compareContent(recorder: ChangeRecorder, context: 'request' | 'response', before: JsonSchema, after: JsonSchema, oldAt: string, newAt: string, label: string, status?: string): void {
  const oldContent = (before.content ?? {}) as Record<string, JsonSchema>;
  const newContent = (after.content ?? {}) as Record<string, JsonSchema>;
  const what = status ? `response ${status}` : 'request body';
  const paired = new Set<string>();
  for (const mediaType of Object.keys(oldContent)) {
    const oldMedia = `${oldAt}/content${pointerOf([mediaType])}`;
    const newTypes = Object.keys(newContent);
    const same = mediaType in newContent ? mediaType : (newTypes.find((m) => essence(m) === essence(mediaType)) ?? (context === 'request' ? newTypes.find((m) => includes(m, mediaType)) : undefined));
    // A response answered in a more specific type of the same syntax (application/json as
    // application/problem+json: RFC 6839 §3.1, a +json type is JSON) is still read by a client that
    // reads JSON; one that checks the type exactly does not. Not the other way round: a client of
    // application/problem+json tells problem details by that type.
    const specialized = same === undefined && context === 'response' ? newTypes.find((m) => !(m in oldContent) && !paired.has(m) && specializes(m, mediaType)) : undefined;
    const match = same ?? specialized;
    if (match === undefined) {
      recorder.record(`${context}-media-type-removed`, `${what}: media type ${mediaType} removed`, oldMedia, `${newAt}/content`, label, 'old');
      continue;
    }
    const newMedia = `${newAt}/content${pointerOf([match])}`;
    if (essence(match) === essence(mediaType) || specialized) paired.add(match);
    if (specialized) recorder.record('response-media-type-specialized', `${what}: media type ${mediaType} → ${match} (possibly breaking: the same syntax, more specific; clients that check the type exactly no longer find ${essence(mediaType)})`, oldMedia, newMedia, label);
    else if (match !== mediaType) recorder.explain(oldMedia, essence(match) === essence(mediaType) ? newMedia : undefined);
    // JSON Schema describes a JSON body's values (and a text one's single value) as they are; an
    // XML body only loosely, through the XML Object's mapping (OAS 3.1 §4.8.26), where an element
    // may read as an object or as its text: there a witness is no proof.
    const loose = /^(?:application|text)\/(?:[\w.-]+\+)?xml$/.test(essence(mediaType)) ? essence(mediaType) : undefined;
    const scope: SchemaScope = { recorder, context, operation: label, seen: new WeakMap(), ...(loose ? { loose } : {}) };
    const [oldSchema, newSchema] = [oldContent[mediaType]!.schema, newContent[match]!.schema];
    // A media type without a schema allows any content: gaining one constrains, losing one frees.
    if (oldSchema === undefined && newSchema !== undefined) recorder.record(`${context}-schema-added`, `${what}: ${mediaType} gains a schema`, oldMedia, `${newMedia}/schema`, label, 'new');
    else if (oldSchema !== undefined && newSchema === undefined) recorder.record(`${context}-schema-removed`, `${what}: ${mediaType} loses its schema`, `${oldMedia}/schema`, newMedia, label, 'old');
    else compareSchemas(scope, oldSchema, newSchema, `${oldMedia}/schema`, `${newMedia}/schema`);
    // How multipart and form parts are written (OAS 3.1 §4.8.15): each side reads the other's parts wrong.
    const [oldEncoding, newEncoding] = [oldContent[mediaType]!.encoding, newContent[match]!.encoding];
    if (shapeKey(oldEncoding) !== shapeKey(newEncoding)) recorder.record(`${context}-format-changed`, `${what}: encoding of ${mediaType} changed`, `${oldMedia}/encoding`, `${newMedia}/encoding`, label);
  }
  for (const mediaType of Object.keys(newContent)) {
    if (!(mediaType in oldContent) && !paired.has(mediaType)) recorder.record(`${context}-media-type-added`, `${what}: media type ${mediaType} added`, `${oldAt}/content`, `${newAt}/content${pointerOf([mediaType])}`, label, 'new');
  }
}

/** One way to authenticate: every scheme it names, each with the scopes it demands. */
type Alternative = Map<string, Set<string>>;

/**
 * Security is a list of alternatives, each a set of schemes (OAS 3.1 §4.8.30); `[]` or `{}`
 * means no authentication. A client of OLD meets one alternative; it still gets in if some
 * alternative of NEW demands a subset of that (no more schemes, no more scopes). So a scheme or
 * scope removed from an alternative relaxes and one added tightens, while an alternative removed
 * outright leaves its clients with nothing they meet. Servers are judged the other way round.
 */
function compareSecurity(recorder: ChangeRecorder, oldDoc: JsonSchema, newDoc: JsonSchema, old: OperationAt, now: OperationAt, label: string): void {
  const effective = (doc: JsonSchema, at: OperationAt) =>
    at.operation.security !== undefined ? { list: at.operation.security as JsonSchema[], pointer: `${at.pointer}/security`, declared: true } : { list: (doc.security ?? []) as JsonSchema[], pointer: doc.security ? '/security' : at.pointer, declared: doc.security !== undefined };
  const before = effective(oldDoc, old);
  const after = effective(newDoc, now);
  // Security is judged here, as the operation's effective list, whichever level declares it: the
  // catch-all must not list a requirement moved between the document and its operations.
  for (const [pointer, version] of [[before.pointer, 'old'], [after.pointer, 'new']] as const) {
    if (pointer.endsWith('/security')) recorder.explain(version === 'old' ? pointer : undefined, version === 'new' ? pointer : undefined);
  }
  const alternatives = (list: JsonSchema[]): Alternative[] =>
    (list.length === 0 ? [{}] : list).map((requirement) => new Map(Object.entries(requirement).map(([name, scopes]) => [name, new Set((scopes ?? []) as string[])])));
  const oldAlternatives = alternatives(before.list);
  const newAlternatives = alternatives(after.list);
  const within = (small: Alternative, large: Alternative) => [...small].every(([name, scopes]) => large.has(name) && [...scopes].every((scope) => large.get(name)!.has(scope)));
  const same = (a: Alternative, b: Alternative) => within(a, b) && within(b, a);
  for (const alternative of oldAlternatives) {
    if (newAlternatives.some((candidate) => within(candidate, alternative))) continue;
    const stricter = newAlternatives.find((candidate) => within(alternative, candidate));
    // OLD declaring no security anywhere (OAS 3.1 §4.8.10: the field is optional) may mean an open
    // operation or an undocumented one; `security: []` or `{}` says open, and tightening that breaks.
    if (stricter && !before.declared) recorder.record('security-added', `security ${describe(stricter)} added where OLD declared none (possibly breaking: OLD declares no security for this operation, which may mean open or only undocumented)`, before.pointer, after.pointer, label);
    else if (stricter) recorder.record('security-tightened', `security ${describe(alternative)} now needs ${describe(stricter)}`, before.pointer, after.pointer, label);
    else recorder.record('security-requirement-removed', `security alternative ${describe(alternative)} removed`, before.pointer, after.pointer, label);
  }
  for (const alternative of newAlternatives) {
    if (oldAlternatives.some((candidate) => within(candidate, alternative))) continue;
    const looser = oldAlternatives.find((candidate) => within(alternative, candidate) && !same(alternative, candidate));
    if (looser) recorder.record('security-relaxed', `security ${describe(looser)} now needs only ${describe(alternative)}`, before.pointer, after.pointer, label);
    else recorder.record('security-requirement-added', `security alternative ${describe(alternative)} added`, before.pointer, after.pointer, label);
  }
  const schemes = (doc: JsonSchema) => ((doc.components as JsonSchema | undefined)?.securitySchemes ?? {}) as Record<string, JsonSchema>;
  const used = new Set([...before.list, ...after.list].flatMap((requirement) => Object.keys(requirement)));
  for (const name of used) {
    const oldScheme = schemes(oldDoc)[name];
    const newScheme = schemes(newDoc)[name];
    if (!oldScheme || !newScheme) continue;
    const oldDefinition = definitionOf(oldScheme);
    const newDefinition = definitionOf(newScheme);
    const at = pointerOf(['components', 'securitySchemes', name]);
    // `Bearer` and `bearer` are one scheme: both versions were read in lower case (readVersion).
    if (canonical(oldDefinition) !== canonical(newDefinition)) recorder.record('security-scheme-changed', `security scheme "${name}" ${canonical(oldDefinition)} → ${canonical(newDefinition)}`, at, at, label);
  }
}

/**
 * What a scheme requires of a request: everything but its description, bearerFormat (a hint, OAS 3.1
 * §4.8.27) and extensions. The scopes
 * a flow offers are left out: which ones a request needs is the requirements' business, compared above.
 */
function definitionOf(scheme: JsonSchema): JsonSchema {
  const definition = Object.fromEntries(Object.entries(scheme).filter(([key]) => key !== 'description' && key !== 'bearerFormat' && !key.startsWith('x-')));
  if (definition.flows && typeof definition.flows === 'object') {
    definition.flows = Object.fromEntries(Object.entries(definition.flows as Record<string, JsonSchema>).map(([flow, value]) => [flow, Object.fromEntries(Object.entries(value ?? {}).filter(([key]) => key !== 'scopes' && key !== 'description' && !key.startsWith('x-')))]));
  }
  return definition;
}

function describe(alternative: Alternative): string {
  const names = [...alternative.keys()].sort();
  return names.length === 0 ? '(none)' : names.map((name) => `${name}${alternative.get(name)!.size ? `[${[...alternative.get(name)!].sort().join(' ')}]` : ''}`).join(' + ');
}
