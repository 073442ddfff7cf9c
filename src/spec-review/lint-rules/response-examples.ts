import { authoredPointer } from '../../contract/authored-pointer.ts';
import { pointerOf, resolvePointer } from '../../contract/json-pointer.ts';
import type { JsonSchema } from '../../contract/index.ts';
import type { LintFinding, LintRule } from '../lint-finding.ts';

/**
 * Every response body has an example, and it validates against its own schema with the kit's Ajv
 * (the validators that judge the mock and the conformance suite): an example that breaks its
 * schema misleads every reader and every tool that mocks from examples (Prism does).
 */
export const responseExamples: LintRule = {
  ids: [
    { id: 'response-example-missing', severity: 'error', summary: 'every response with a body has an `example` (or `examples`)' },
    { id: 'response-example-valid', severity: 'error', summary: 'every response example validates against its own schema (the kit\'s Ajv 2020, strict)' },
  ],
  needsContract: true,
  check({ contract, rawDocument }) {
    const findings: LintFinding[] = [];
    for (const operation of contract!.operations) {
      const operationAt = ['paths', operation.path, operation.method.toLowerCase()];
      for (const response of operation.responses.values()) {
        if (!response.mediaType || !response.schema) continue;
        const mediaAt = pointerOf([...operationAt, 'responses', response.status, 'content', response.mediaType]);
        const examples = examplesOf(resolvePointer(contract!.document, mediaAt) as JsonSchema);
        const where = `${operation.operationId} ${response.status}`;
        if (examples.length === 0) {
          findings.push({ ruleId: 'response-example-missing', severity: 'error', pointer: authoredPointer(rawDocument, mediaAt), onKey: true, message: `${where}: expected an example of the ${response.mediaType} body` });
        }
        for (const { value, at } of examples) {
          for (const violation of response.validate(value)) {
            findings.push({
              ruleId: 'response-example-valid',
              severity: 'error',
              pointer: authoredPointer(rawDocument, mediaAt + at + violation.instancePointer),
              message: `${where}: the example ${violation.message} (expected ${violation.expected}, schema #${violation.schemaPointer})`,
            });
          }
        }
      }
    }
    return findings;
  },
};

/** The media type's `example`, or each of its `examples` (OAS 3.1 §4.8.14), with the pointer to the value. */
function examplesOf(media: JsonSchema): { value: unknown; at: string }[] {
  if ('example' in media) return [{ value: media.example, at: '/example' }];
  const examples = (media.examples ?? {}) as Record<string, JsonSchema>;
  return Object.entries(examples)
    .filter(([, example]) => example && 'value' in example)
    .map(([name, example]) => ({ value: example.value, at: pointerOf(['examples', name, 'value']) }));
}
