import { describe, expect, it } from 'vitest';
import { ownerOf } from './judge.ts';
import { VERDICT_KINDS } from './model/index.ts';
import { RULES } from './registry.ts';
import type { Exchange, StepKind } from '../types.ts';

const steps = [...new Set(RULES.flatMap((rule) => [...(rule.steps ?? []), ...(rule.claims ?? []).flatMap((c) => c.steps ?? [])]))] as StepKind[];
const exchangeOf = (step: StepKind, method: string, credential: Exchange['credential'], nearMiss: boolean) =>
  ({ step, method, credential, ...(nearMiss ? { keyVariant: { id: 'case', placement: { in: 'header' } } } : {}) }) as unknown as Exchange;

describe('the registry of rules', () => {
  it('gives every rule a stable kebab-case id of its own, a title and what it proves', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)+$/);
      expect(rule.title.length, rule.id).toBeGreaterThan(0);
      expect(rule.proves.length, rule.id).toBeGreaterThan(20);
    }
  });

  it('leaves every kind of verdict the model gives exactly one rule to report it, on any step, method and credential', () => {
    const ambiguous: string[] = [];
    const orphans: string[] = [];
    for (const kind of VERDICT_KINDS) {
      for (const step of steps) {
        for (const method of ['GET', 'DELETE', 'PATCH']) {
          for (const credential of ['none', 'invalid', 'restricted', 'full'] as const) {
            for (const nearMiss of credential === 'full' ? [false, true] : [false]) {
              const exchange = exchangeOf(step, method, credential, nearMiss);
              const admitting = RULES.flatMap((rule) => (rule.claims ?? []).filter((c) => c.kinds.includes(kind) && (!c.where || c.where(exchange))).map((c) => ({ rule, specific: c.steps?.includes(step) ?? false, general: !c.steps })));
              const specific = new Set(admitting.filter((a) => a.specific).map((a) => a.rule.id));
              const general = new Set(admitting.filter((a) => a.general).map((a) => a.rule.id));
              const at = `${kind} on ${step} ${method} ${credential}${nearMiss ? ' near-miss' : ''}`;
              // The owner must not depend on the order of the registry.
              if (specific.size > 1 || (specific.size === 0 && general.size > 1)) ambiguous.push(`${at}: ${[...specific, ...general].join(', ')}`);
              if (!ownerOf(RULES, { rule: kind }, exchange)) orphans.push(at);
            }
          }
        }
      }
    }
    expect(ambiguous).toEqual([]);
    expect(orphans).toEqual([]);
  });

  it('files a verdict on a step a rule names under that rule, and elsewhere under the general one', () => {
    expect(ownerOf(RULES, { rule: 'resource-missing' }, exchangeOf('near-miss-project', 'GET', 'full', false))?.id).toBe('near-miss-project-not-found');
    expect(ownerOf(RULES, { rule: 'resource-missing' }, exchangeOf('missing-project', 'GET', 'full', false))?.id).toBe('missing-project-not-found');
    expect(ownerOf(RULES, { rule: 'resource-gone' }, exchangeOf('final-probe', 'DELETE', 'full', false))?.id).toBe('deletions-last');
    expect(ownerOf(RULES, { rule: 'auth-required' }, exchangeOf('near-miss-key', 'GET', 'full', true))?.id).toBe('near-miss-key-rejected');
  });
});
