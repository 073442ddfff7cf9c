import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES } from './default-fixtures.ts';
import type { MockState } from './state.ts';
import { createStore } from './store.ts';

const withAccount = (tokens: number): MockState => ({
  ...structuredClone(DEFAULT_FIXTURES),
  serviceAccounts: [{ id: 'big', tokens: Array.from({ length: tokens }, (_, i) => ({ id: `t${i}`, description: `token ${i}` })) }],
});

describe('the store', () => {
  it('deletes a token once and reports false for it afterwards, in an account of 100,000 tokens', () => {
    const store = createStore(withAccount(100_000));
    expect(store.deleteToken('big', 't99999')).toBe(true);
    expect(store.deleteToken('big', 't99999')).toBe(false);
    expect(store.deleteToken('big', 'missing')).toBe(false);
    expect(store.deleteToken('other', 't1')).toBe(false);
    expect(store.snapshot().serviceAccounts[0]!.tokens).toHaveLength(99_999);
  });

  it('never changes the state it was made from, so sessions can share one fixtures value', () => {
    const fixtures = withAccount(3);
    const before = structuredClone(fixtures);
    const store = createStore(fixtures);
    store.deleteToken('big', 't1');
    store.projectEnvironments('default');
    expect(fixtures).toEqual(before);
    expect(createStore(fixtures).deleteToken('big', 't1')).toBe(true);
  });

  it('keeps the remaining tokens in the fixture order in a snapshot after deletes', () => {
    const store = createStore(withAccount(5));
    store.deleteToken('big', 't1');
    store.deleteToken('big', 't3');
    expect(store.snapshot().serviceAccounts[0]!.tokens).toEqual([
      { id: 't0', description: 'token 0' },
      { id: 't2', description: 'token 2' },
      { id: 't4', description: 'token 4' },
    ]);
  });

  it('hands out reads frozen and the same object each time, so they can be rendered once and never changed through', () => {
    const store = createStore(DEFAULT_FIXTURES);
    const environments = store.projectEnvironments('default')!;
    expect(store.projectEnvironments('default')).toBe(environments);
    expect(Object.isFrozen(environments) && environments.every((e) => Object.isFrozen(e))).toBe(true);
    expect(() => ((environments[0] as { name: string }).name = 'changed')).toThrow(TypeError);
    expect(Object.isFrozen(store.oidcSettings())).toBe(true);
    expect(store.snapshot().oidcSettings).toEqual(DEFAULT_FIXTURES.oidcSettings);
  });

  it('lists a few API keys and counts them all', () => {
    const state = { ...structuredClone(DEFAULT_FIXTURES), apiKeys: Array.from({ length: 1000 }, (_, i) => ({ key: `k${i}`, permissions: ['*'] })) };
    const { keys, total } = createStore(state).listApiKeys(3);
    expect(keys.map((k) => k.key)).toEqual(['k0', 'k1', 'k2']);
    expect(total).toBe(1000);
  });
});
