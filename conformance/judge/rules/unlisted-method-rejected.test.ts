// The rule unlisted-method-rejected and the model (allowedAnswers, kind 'unlisted-method') judge the
// same answers: a method the spec does not list on a path. They must accept the same statuses, or a
// run reports a refusal under one and not the other. This compares them status by status, on the
// kit's spec and on one that documents a range (4XX), so a second list of refusals in either place
// fails here as soon as it disagrees with the other.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../../src/contract/index.ts';
import type { Exchange } from '../../types.ts';
import { allowedAnswers, createRunState } from '../model/index.ts';
import type { RuleContext } from '../rule.ts';
import { unlistedMethodRejected } from './unlisted-method-rejected.ts';

let kit: Contract;
let ranges: Contract;
beforeAll(async () => {
  kit = await loadContract({ validate: false });
  ranges = await loadContract({ specFile: new URL('../../test/fixtures/ranges.yaml', import.meta.url).pathname });
});

/** Methods the spec lists on no path of either contract: unregistered, registered, and a listed one spelled in another case (RFC 9110 §9.1). */
const METHODS = ['PUT', 'POST', 'PATCH', 'TRACE', 'PROPFIND', 'get', 'Delete'];
const STATUSES = Array.from({ length: 500 }, (_, i) => 100 + i);

/** The statuses of `method` on each path of `contract` that the rule passes and that the model allows, or where only one of them does. */
function disagreements(contract: Contract): string[] {
  const context: RuleContext = { contract, strict: false, all: [], excerpt: { secretProperties: contract.secretProperties, redact: (text) => text } };
  const out: string[] = [];
  for (const operation of contract.operations) {
    const path = operation.path.replace(/\{[^}]+\}/g, '1');
    // The 405 rule's other condition (Allow names the path's methods) is met, so only the status decides.
    const allow = contract.operations.filter((o) => o.path === operation.path).map((o) => o.method.toUpperCase()).join(', ');
    for (const method of METHODS) {
      const model = allowedAnswers({ method, path, credential: 'full' }, createRunState({ contract }));
      expect(model.kind).toBe('unlisted-method');
      for (const status of STATUSES) {
        const exchange: Exchange = {
          operationId: operation.operationId,
          step: 'unlisted-method',
          label: `${method} ${path}`,
          credential: 'full',
          method,
          path,
          expects: [],
          seq: 0,
          request: { method, url: `http://127.0.0.1:1${path}`, headers: {} },
          response: { status, headers: { allow }, body: '' },
        };
        const passed = unlistedMethodRejected.judge([exchange], context).some((j) => j.verdict === 'passed');
        if (passed !== model.statuses.includes(status)) out.push(`${method} ${operation.path} ${status}: rule ${passed ? 'passes' : 'does not pass'}, model ${model.statuses.includes(status) ? 'allows' : 'does not allow'}`);
      }
    }
  }
  return out;
}

describe('unlisted-method-rejected and the model', () => {
  it("accept the same statuses for a method the kit's spec does not list", () => {
    expect(disagreements(kit)).toEqual([]);
  });

  it('accept the same statuses where the spec documents a 4XX range', () => {
    expect(disagreements(ranges)).toEqual([]);
  });
});
