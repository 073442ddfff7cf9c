import { authoredPointer } from '../../contract/authored-pointer.ts';
import { pointerOf, resolvePointer } from '../../contract/json-pointer.ts';
import type { JsonSchema } from '../../contract/index.ts';
import type { LintFinding, LintRule } from '../lint-finding.ts';

/** The error body of API §2.3 ({id, name, message}); every error response is it or an `allOf` over it. */
export const ERROR_BODY_SCHEMA = '#/components/schemas/ErrorBody';

const isErrorStatus = (status: string) => /^[45]/.test(status) || status === 'default';

export const errorResponses: LintRule = {
  ids: [
    { id: 'error-response-body', severity: 'error', summary: `every 4xx/5xx response has a JSON body whose schema is \`${ERROR_BODY_SCHEMA}\` or an \`allOf\` over it (API §2.3)` },
    { id: 'error-name-fixed', severity: 'error', summary: 'every error body fixes `name` with a `const`, the same for a status across operations (API §7)' },
  ],
  needsContract: true,
  check({ contract, rawDocument }) {
    const findings: LintFinding[] = [];
    const kindByStatus = new Map<string, { kind: string; operationId: string }>();
    for (const operation of contract!.operations) {
      for (const response of operation.responses.values()) {
        if (!isErrorStatus(response.status)) continue;
        const where = `${operation.operationId} ${response.status}`;
        const responseAt = authoredPointer(rawDocument, pointerOf(['paths', operation.path, operation.method.toLowerCase(), 'responses', response.status]));
        if (!response.schemaPointer) {
          findings.push({ ruleId: 'error-response-body', severity: 'error', pointer: responseAt, onKey: true, message: `${where}: expected a body with the error schema ${ERROR_BODY_SCHEMA}, got no body` });
          continue;
        }
        if (!usesSchema(rawDocument, response.schemaPointer, ERROR_BODY_SCHEMA, new Set())) {
          findings.push({ ruleId: 'error-response-body', severity: 'error', pointer: response.schemaPointer, message: `${where}: expected the error schema ${ERROR_BODY_SCHEMA} (or an allOf over it), got the schema at #${response.schemaPointer}` });
          continue;
        }
        if (response.errorKind === undefined) {
          findings.push({ ruleId: 'error-name-fixed', severity: 'error', pointer: response.schemaPointer, onKey: true, message: `${where}: expected the error body to fix \`name\` with a const (API §7 names one kind per status)` });
          continue;
        }
        const earlier = kindByStatus.get(response.status);
        if (earlier && earlier.kind !== response.errorKind) {
          findings.push({ ruleId: 'error-name-fixed', severity: 'error', pointer: response.schemaPointer, onKey: true, message: `${where}: expected name "${earlier.kind}" as ${earlier.operationId} fixes for ${response.status}, got "${response.errorKind}"` });
        }
        if (!earlier) kindByStatus.set(response.status, { kind: response.errorKind, operationId: operation.operationId });
      }
    }
    return findings;
  },
};

/** Whether the schema authored at `pointer` is `target`, or reaches it through `$ref` and `allOf`. */
function usesSchema(rawDocument: JsonSchema, pointer: string, target: string, seen: Set<string>): boolean {
  if (`#${pointer}` === target) return true;
  if (seen.has(pointer)) return false;
  seen.add(pointer);
  const schema = resolvePointer(rawDocument, pointer) as JsonSchema | undefined;
  if (!schema || typeof schema !== 'object') return false;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#')) return usesSchema(rawDocument, schema.$ref.slice(1), target, seen);
  const branches = Array.isArray(schema.allOf) ? schema.allOf : [];
  return branches.some((_, index) => usesSchema(rawDocument, `${pointer}/allOf/${index}`, target, seen));
}
