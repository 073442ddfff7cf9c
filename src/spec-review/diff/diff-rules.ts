/**
 * Every kind of change `flag-admin spec diff` reports, with a stable id and what it means for
 * clients (code written against OLD, calling a server of NEW) and for servers (a server
 * implementing OLD, judged by NEW). The ids and severities are public: CI gates on them.
 */
export type Severity = 'breaking' | 'warning' | 'info';

export interface DiffRule {
  client: Severity;
  server: Severity;
  summary: string;
}

const rule = (client: Severity, server: Severity, summary: string): DiffRule => ({ client, server, summary });

/** Schema changes, by who reads the data: a client reads a response, a server reads a request. */
const SCHEMA_KINDS = {
  'property-removed': { response: rule('breaking', 'info', 'a property is removed from a response body: clients that read it lose it'), request: rule('warning', 'info', 'a property is removed from a request: clients still sending it may be refused') },
  'property-added': { response: rule('info', 'info', 'an optional property is added to a response body'), request: rule('info', 'warning', 'a property is added to a request: a server of OLD ignores it') },
  'required-added': { response: rule('info', 'breaking', 'a response property becomes required: a server of OLD may omit it'), request: rule('breaking', 'info', 'a request property becomes required: clients of OLD may omit it') },
  'required-removed': { response: rule('breaking', 'info', 'a response property is no longer required: clients may no longer rely on it'), request: rule('info', 'breaking', 'a request property is no longer required: a server of OLD still needs it') },
  'type-widened': { response: rule('breaking', 'info', 'a response value may have more types: clients must handle them'), request: rule('info', 'breaking', 'a request value may have more types: a server of OLD refuses them') },
  'type-narrowed': { response: rule('info', 'breaking', 'a response value may have fewer types: a server of OLD may still send the others'), request: rule('breaking', 'info', 'a request value may have fewer types: clients of OLD may send the others') },
  'type-changed': { response: rule('breaking', 'breaking', 'a response value changes type'), request: rule('breaking', 'breaking', 'a request value changes type') },
  'enum-widened': { response: rule('breaking', 'info', 'a response enum gains values (or loses its enum): clients must handle them'), request: rule('info', 'breaking', 'a request enum gains values: a server of OLD refuses them') },
  'enum-narrowed': { response: rule('info', 'breaking', 'a response enum loses values (or gains an enum): a server of OLD may still send them'), request: rule('breaking', 'info', 'a request enum loses values: clients of OLD may still send them') },
  'const-changed': { response: rule('breaking', 'breaking', 'a response const changes, appears or disappears'), request: rule('breaking', 'breaking', 'a request const changes, appears or disappears') },
  'default-changed': { response: rule('warning', 'warning', 'a response default changes, appears or disappears: clients reading an absent value as the default read another'), request: rule('breaking', 'breaking', 'a request default changes, appears or disappears: clients of OLD that omit the value get another behaviour, and a server of OLD applies the old default') },
  'default-fixed': { response: rule('info', 'info', 'a response default the schema refused (`default: true` on a string) becomes one it accepts: a fix'), request: rule('info', 'info', 'a request default the schema refused (`default: true` on a string) becomes one it accepts: a fix, no value anyone could send changes') },
  'extensible-enum-value-removed': { response: rule('warning', 'info', 'a value of a response x-extensible-enum is removed: clients that handle it keep code that may no longer run'), request: rule('warning', 'info', 'a value of a request x-extensible-enum is removed: clients still sending it may be refused') },
  'format-changed': { response: rule('warning', 'warning', 'a response value changes format, contentEncoding or contentMediaType'), request: rule('warning', 'warning', 'a request value changes format, contentEncoding or contentMediaType') },
  'encoding-changed': { response: rule('breaking', 'breaking', 'the contentEncoding of a response string changes from one encoding to another: the same text stands for other bytes, so clients of OLD misread it'), request: rule('breaking', 'breaking', 'the contentEncoding of a request string changes from one encoding to another: the text a client of OLD writes stands for other bytes, or none, to a server of NEW') },
  'constraint-widened': { response: rule('breaking', 'info', 'a response limit is relaxed (maximum raised, minimum lowered, a pattern, subschema, prefixItems, dependent requirement or allOf branch removed): clients meet values they never saw'), request: rule('info', 'breaking', 'a request limit is relaxed: a server of OLD refuses the newly allowed values') },
  'constraint-narrowed': { response: rule('info', 'breaking', 'a response limit is tightened (or a pattern, subschema such as items, contains, propertyNames, unevaluated*, then/else, prefixItems, patternProperties, dependentSchemas or dependentRequired added): a server of OLD may break it'), request: rule('breaking', 'info', 'a request limit is tightened: clients of OLD may break it') },
  // A capacity limit (how long, how many, how large) set where OLD stated none: every server has
  // one, stated or not, so this often documents one it already kept (oasdiff rates these WARN for
  // the same reason). A limit OLD stated and NEW lowers stays `constraint-narrowed`, breaking.
  'limit-set': { response: rule('info', 'warning', 'a response limit (maxLength, maxItems, maximum, minimum, …) is set where OLD stated none: possibly breaking for a server of OLD, unless it already kept that limit'), request: rule('warning', 'info', 'a request limit (maxLength, maxItems, maximum, minimum, …) is set where OLD stated none: possibly breaking, clients of OLD sending values beyond it are refused unless the server already refused them') },
  'pattern-changed': { response: rule('warning', 'warning', 'a response pattern is replaced by one that neither includes nor excludes it as far as can be decided'), request: rule('warning', 'warning', 'a request pattern is replaced by one that neither includes nor excludes it as far as can be decided') },
  'schema-changed': { response: rule('warning', 'warning', 'an if, discriminator or $dynamicRef of a response schema changes: its effect on the values allowed is not decidable here'), request: rule('warning', 'warning', 'an if, discriminator or $dynamicRef of a request schema changes: its effect on the values allowed is not decidable here') },
  // `not` refuses what its subschema accepts (2020-12 §10.2.1, `not`): judged by the instances, a
  // direction proven harmless is info, one shown by an instance breaking, the rest a warning.
  'not-changed': { response: rule('breaking', 'breaking', 'the `not` of a response schema changes, appears or disappears: clients meet a value it no longer excludes, or a server of OLD sends one it now excludes'), request: rule('breaking', 'breaking', 'the `not` of a request schema changes, appears or disappears: clients of OLD may send a value it now excludes, or a server of OLD refuses one it no longer excludes') },
  'schema-added': { response: rule('info', 'breaking', 'a response media type gains a schema: a server of OLD may send anything'), request: rule('breaking', 'info', 'a request media type gains a schema: clients of OLD may send anything') },
  'schema-removed': { response: rule('breaking', 'info', 'a response media type loses its schema: clients can rely on nothing'), request: rule('info', 'breaking', 'a request media type loses its schema: a server of OLD refuses what it did not accept') },
  'additional-properties-widened': { response: rule('warning', 'info', 'a response object may carry properties it does not list'), request: rule('info', 'breaking', 'a request object may carry unlisted properties: a server of OLD refuses them') },
  'additional-properties-narrowed': { response: rule('info', 'breaking', 'a response object may no longer carry unlisted properties'), request: rule('breaking', 'info', 'a request object may no longer carry unlisted properties') },
} as const;

export type SchemaKind = keyof typeof SCHEMA_KINDS;
export type SchemaContext = 'request' | 'response';

export const DIFF_RULES: Record<string, DiffRule> = {
  'operation-removed': rule('breaking', 'info', 'an operation (or webhook, or callback) is removed, without deprecation or before its sunset date'),
  'operation-removed-deprecated': rule('warning', 'info', 'a deprecated operation without a sunset date is removed: clients were told to move, but not when'),
  'operation-removed-after-sunset': rule('info', 'info', 'a deprecated operation is removed after its sunset date (x-sunset, or a Sunset response header)'),
  'operation-sunset-removed': rule('warning', 'info', 'a deprecated operation loses its x-sunset date: clients planning for it no longer know when it goes'),
  'operation-sunset-changed': rule('warning', 'info', 'the x-sunset date of a deprecated operation changes: clients planned for the other one'),
  'operation-added': rule('info', 'breaking', 'an operation is added: a server of OLD does not implement it'),
  'operation-id-changed': rule('warning', 'warning', 'an operationId changes: generated clients and handlers keyed by it are renamed'),
  'operation-deprecated': rule('warning', 'info', 'an operation becomes deprecated'),
  'parameter-added-required': rule('breaking', 'warning', 'a required parameter is added: clients of OLD do not send it'),
  'parameter-added-optional': rule('info', 'warning', 'an optional parameter is added: a server of OLD ignores it'),
  'parameter-removed': rule('warning', 'info', 'a parameter is removed: clients still sending it may be refused'),
  'parameter-became-required': rule('breaking', 'info', 'a parameter becomes required'),
  'parameter-became-optional': rule('info', 'breaking', 'a parameter becomes optional: a server of OLD still needs it'),
  'parameter-renamed': rule('info', 'info', 'a path parameter is renamed (the URL is the same)'),
  'request-body-added': rule('breaking', 'warning', 'a request body is added'),
  'request-body-removed': rule('breaking', 'info', 'a request body is removed: clients of OLD still send one, which a server of NEW need not accept'),
  'request-body-became-required': rule('breaking', 'info', 'a request body becomes required'),
  'request-body-became-optional': rule('info', 'breaking', 'a request body becomes optional: a server of OLD still needs it'),
  'request-media-type-removed': rule('breaking', 'info', 'a request media type is no longer accepted'),
  'request-media-type-added': rule('info', 'breaking', 'a request media type is added: a server of OLD refuses it'),
  'response-status-removed': rule('breaking', 'breaking', 'a success or redirect status (1XX-3XX) is removed: clients expecting it get another, and a server of OLD still answers it'),
  'response-error-status-removed': rule('info', 'breaking', 'an error status (4XX, 5XX or default) is removed: clients handling it only keep code that no longer runs, but a server of OLD still answers it'),
  'response-status-added': rule('warning', 'info', 'a response status is added: clients meet a status they do not handle'),
  'response-body-removed': rule('breaking', 'breaking', 'a response no longer has a body'),
  'response-body-added': rule('warning', 'breaking', 'a response gains a body: a server of OLD sends none'),
  'response-media-type-removed': rule('breaking', 'breaking', 'a response media type is removed'),
  'response-media-type-specialized': rule('warning', 'breaking', 'a response media type is replaced by a more specific one of the same syntax (application/json by application/problem+json, RFC 6839 §3.1): possibly breaking for clients that check the type exactly; a server of OLD still sends the general one'),
  'response-media-type-added': rule('warning', 'info', 'a response media type is added'),
  'response-header-removed': rule('breaking', 'info', 'a response header is removed: clients reading it lose it'),
  'response-header-added': rule('info', 'warning', 'a response header is added: a server of OLD does not send it'),
  'response-header-became-optional': rule('breaking', 'info', 'a response header is no longer required: clients may no longer rely on it'),
  'response-header-became-required': rule('info', 'breaking', 'a response header becomes required: a server of OLD may omit it'),
  'parameter-serialization-changed': rule('breaking', 'breaking', 'how a parameter or response header is written changes (style, explode, allowReserved, allowEmptyValue, content media type): each side reads the other wrong'),
  'security-requirement-removed': rule('breaking', 'info', 'a way to authenticate is removed: no alternative of NEW is met by what its clients send'),
  'security-requirement-added': rule('info', 'breaking', 'a way to authenticate is added: a server of OLD does not accept it'),
  'security-added': rule('warning', 'info', 'security is required of an operation for which OLD declared none at all (no security field at the operation or document level): possibly breaking, OLD may have been open or only undocumented'),
  'security-tightened': rule('breaking', 'info', 'a way to authenticate needs more: a scheme or scope is added to it, or authentication becomes required'),
  'security-relaxed': rule('info', 'breaking', 'a way to authenticate needs less: a scheme or scope is removed from it, or authentication becomes optional; a server of OLD still asks for it'),
  'security-scheme-changed': rule('breaking', 'breaking', 'a security scheme in use changes (type, location, header name, scheme)'),
  'response-optional-property-removed': rule('warning', 'info', 'an optional property is removed from a response body: possibly breaking, clients of OLD already handle its absence but lose its value'),
  ...Object.fromEntries(
    Object.entries(SCHEMA_KINDS).flatMap(([kind, byContext]) => [
      [`request-${kind}`, byContext.request],
      [`response-${kind}`, byContext.response],
    ]),
  ),
  'version-changed': rule('info', 'info', 'info.version changes'),
  'documentation-changed': rule('info', 'info', 'a description, summary, example, tag or extension changes'),
  'other-change': rule('info', 'info', 'any other change the rules above do not classify'),
};

export const SEVERITY_ORDER: readonly Severity[] = ['breaking', 'warning', 'info'];

export function worse(a: Severity, b: Severity): Severity {
  return SEVERITY_ORDER.indexOf(a) <= SEVERITY_ORDER.indexOf(b) ? a : b;
}
