import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import type { TokenRef } from '../../types.ts';
import { buildPlan } from './plan.ts';
import { planInputFor } from './plan-input.fixture.ts';

const contract = await loadContract({ validate: false });
const tokens = (...names: string[]): TokenRef[] => names.map((n) => ({ account: n.split('/')[0]!, token: n.split('/')[1]! }));

describe('the settle pause (--settle-ms) is waited once per run, however many tokens and projects', () => {
  // What conformance/test/mock.test.ts once bounded by wall time (under 2 s against the mock), which a loaded CI machine broke:
  // the plan's pauses are what a run waits on purpose, so they are counted here, where load cannot move them.
  for (const given of [tokens('1/1'), tokens('1/1', '1/2', '1/3', '2/4', '2/5', '12/1')]) {
    for (const projects of [['default'], ['default', 'mobile-app', 'web']]) {
      it(`${given.length} token(s), ${projects.length} project(s): the planned pauses add up to --settle-ms once`, () => {
        const { requests } = buildPlan(planInputFor(contract, { tokens: given, projects, settleMs: 500 }));
        const pauses = requests.map((r) => r.pauseMs ?? 0).filter((ms) => ms > 0);
        expect(pauses).toEqual([500]);
      });
    }
  }
});
