import { isSuccess } from '../../http-status.ts';
import { failed, parsedBodyOf, passed, type Rule, type Judgement } from '../rule.ts';
import type { Exchange } from '../../types.ts';
import { variantsOf } from './variant-exchanges.ts';

/** What an OPTIONS may be answered (spec decision options-requests): the allowed methods or a preflight's answer, or a refusal. */
export const OPTIONS_STATUSES: ReadonlySet<number> = new Set([200, 204, 400, 401, 403, 404, 405, 501]);

/**
 * Spec decision options-requests: an OPTIONS, plain or as a CORS preflight, carries no data of
 * the operation, changes nothing, and gets a status that reveals no more than the same request
 * without a key would: 200/204 (Allow, CORS headers, no resource data), or a refusal. The model
 * does not judge these (an OPTIONS is no operation of the spec); this rule does. A side effect
 * shows where the run later finds the resource gone.
 */
export const optionsHarmless: Rule = {
  id: 'options-harmless',
  severity: 'error',
  title: 'OPTIONS and CORS preflights carry no data and change nothing',
  proves:
    "an OPTIONS on each operation's path, plain and as a CORS preflight, with every credential class, gets 200 or 204 without the operation's data, or a refusal (401, 403, 404, 405, 501), and deletes nothing; without a key, the same status on a resource that exists and on one that does not",
  level: 'behaviour',
  steps: ['variant'],
  judge: (exchanges, context) => {
    const variants = variantsOf(exchanges, 'options-harmless');
    return variants.flatMap((exchange): Judgement[] => {
      const response = exchange.response;
      if (!response) return [];
      const given = exchange.credential === 'none' && exchange.variant?.resource === 'missing' ? keylessTwin(exchange, variants) : undefined;
      if (given && given.response!.status !== response.status) {
        return [
          failed({
            exchange,
            message: `${exchange.label}: answered ${response.status} on a resource that does not exist, and ${given.response!.status} to the same request on ${given.path}, which exists: without a key, the answer tells the two apart, which the same request without a key must not (spec decision options-requests; the operation itself answers 401 to both, auth before lookup).`,
            expected: `status ${given.response!.status}, as on ${given.path}`,
            got: `status ${response.status}`,
          }),
        ];
      }
      if (!OPTIONS_STATUSES.has(response.status)) {
        return [failed({ exchange, message: `${exchange.label}: answered ${response.status}; an OPTIONS gets the methods the path allows (200, 204) or a refusal (spec decision options-requests).`, expected: `status one of ${[...OPTIONS_STATUSES].join(', ')}`, got: `status ${response.status}` })];
      }
      const data = isSuccess(response.status) ? dataIn(response, context.contract.operation(exchange.operationId)) : undefined;
      if (data) {
        return [failed({ exchange, message: `${exchange.label}: answered ${response.status} with the operation's data (${data}); an OPTIONS says which methods the path allows, never what a GET returns (spec decision options-requests).`, expected: 'no data of the operation', got: data })];
      }
      return [passed(exchange)];
    });
  },
};

/** The same kind of OPTIONS without a key on the same operation, on a resource the run was given, answered. */
function keylessTwin(exchange: Exchange, variants: readonly Exchange[]): Exchange | undefined {
  return variants.find((e) => e !== exchange && e.response && e.credential === 'none' && e.operationId === exchange.operationId && e.variant?.kind === exchange.variant?.kind && e.variant?.resource === 'given');
}

/** Properties of the path's GET answer that a 2xx OPTIONS body carries, named; undefined when it carries none. */
export function dataIn(response: { body: string }, operation: { responses: ReadonlyMap<string, { schema?: unknown }> }): string | undefined {
  const parsed = parsedBodyOf(response);
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return undefined;
  const names = new Set<string>();
  for (const [status, documented] of operation.responses) if (/^2/.test(status)) for (const name of propertyNames(documented.schema)) names.add(name);
  const carried = Object.keys(parsed.value).filter((name) => names.has(name));
  return carried.length > 0 ? `properties ${carried.join(', ')}` : undefined;
}

function propertyNames(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as { properties?: Record<string, unknown>; allOf?: unknown[] };
  return [...Object.keys(node.properties ?? {}), ...(node.allOf ?? []).flatMap(propertyNames)];
}
