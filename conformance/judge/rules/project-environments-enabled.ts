import { pointerOf, type Contract, type JsonSchema } from '../../../src/contract/index.ts';
import { isSuccess } from '../../http-status.ts';
import { GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { failed, ordinaryResponses, parsedBodyOf, passed, type Rule, type Judgement } from '../rule.ts';

/**
 * API §4.1's rule is about these two properties of the response (§2.1): the list, and each
 * entry's `enabled` flag. They are named here, not derived, because the rule is prose; the
 * check reports "not checked" if the spec stops describing them, and a test pins them to the spec.
 */
export const ENVIRONMENTS_PROPERTY = 'environments';
export const ENABLED_PROPERTY = 'enabled';

/** Whether the success schema of the operation still describes `environments[].enabled`. */
export function describesEnabledFlag(contract: Contract): boolean {
  const operation = contract.operation(GET_PROJECT_ENVIRONMENTS);
  return [...operation.responses.values()].some((response) => {
    const list = (response.schema?.properties as Record<string, JsonSchema> | undefined)?.[ENVIRONMENTS_PROPERTY];
    const entry = list?.items as JsonSchema | undefined;
    return (entry?.properties as Record<string, JsonSchema> | undefined)?.[ENABLED_PROPERTY] !== undefined;
  });
}

export const projectEnvironmentsEnabled: Rule = {
  id: 'project-environments-enabled',
  severity: 'error',
  title: 'Only environments enabled in the project are returned',
  proves:
    'no listed environment says `enabled: false`: only environments enabled in the project are available to it (API §4.1)',
  level: 'behaviour',
  judgesTraffic: true,
  appliesTo: (planned) => planned.operationId === GET_PROJECT_ENVIRONMENTS,
  judge: (exchanges, context): Judgement[] => {
    if (!describesEnabledFlag(context.contract)) {
      return [{ operationId: GET_PROJECT_ENVIRONMENTS, verdict: 'not checked', reason: `the spec no longer describes ${ENVIRONMENTS_PROPERTY}[].${ENABLED_PROPERTY}` }];
    }
    const read = ordinaryResponses(exchanges).filter((e) => e.operationId === GET_PROJECT_ENVIRONMENTS && isSuccess(e.response.status));
    if (read.length === 0) {
      return [{ operationId: GET_PROJECT_ENVIRONMENTS, verdict: 'not checked', reason: 'no request got a project\'s environments (see documented-success)' }];
    }
    return read.flatMap((exchange): Judgement[] => {
      const body = parsedBodyOf(exchange.response);
      const list = body.ok ? (body.value as Record<string, unknown> | null)?.[ENVIRONMENTS_PROPERTY] : undefined;
      // A body without a list is a schema violation: response-schema-conformance reports it.
      if (!Array.isArray(list)) return [];
      const disabled = list.flatMap((entry: unknown, index) =>
        entry && typeof entry === 'object' && (entry as Record<string, unknown>)[ENABLED_PROPERTY] === false ? [index] : [],
      );
      if (disabled.length === 0) return [passed(exchange)];
      return disabled.map((index) =>
        failed({
          exchange,
          message: `${exchange.label}: environment ${JSON.stringify((list[index] as Record<string, unknown>).name ?? index)} is listed with ${ENABLED_PROPERTY}: false; only environments enabled in the project are available to it (API §4.1).`,
          expected: `only entries with ${ENABLED_PROPERTY}: true (or without the flag)`,
          got: `${ENABLED_PROPERTY}: false`,
          instancePointer: pointerOf([ENVIRONMENTS_PROPERTY, index, ENABLED_PROPERTY]),
        }),
      );
    });
  },
};
