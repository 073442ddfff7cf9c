import { describe, expect, it } from 'vitest';
import { allocateTokens, describeRoles } from './token-allocation.ts';

const t = (text: string) => {
  const [account, token] = text.split('/') as [string, string];
  return { account, token };
};
const names = (tokens: readonly { account: string; token: string }[]) => tokens.map((x) => `${x.account}/${x.token}`);

describe('the token planner', () => {
  it('keeps as bystanders the later of two tokens with one id in two accounts, and tokens of an account whose id extends another', () => {
    const allocation = allocateTokens(['1/1', '2/1', '12/7', '1/2', '3/9'].map(t));
    expect(names(allocation.bystanders)).toEqual(['2/1', '12/7']);
    expect(names([allocation.primary!])).toEqual(['1/1']);
    // 1/2 goes through every other account that was not given a token "2": 2, 12 and 3.
    expect(allocation.cross).toEqual({ token: t('1/2'), viaAccount: '2', viaAccounts: ['2', '12', '3'] });
    expect(names([allocation.spare!])).toEqual(['3/9']);
    expect(names(allocation.restrictedTargets)).toEqual(['1/1', '2/1', '12/7', '3/9']);
  });

  it('uses every token: those no role needs are deleted like the first', () => {
    const allocation = allocateTokens(['1/1', '1/2', '1/3', '1/4', '1/5'].map(t));
    expect(allocation.cross).toBeUndefined();
    expect(names([allocation.primary!, allocation.spare!, ...allocation.extra])).toEqual(['1/1', '1/2', '1/3', '1/4']);
    // The last other token of an account the run deletes from is its neighbour: kept until after --settle-ms.
    expect(names(allocation.bystanders)).toEqual(['1/5']);
  });

  it('names, for each role nobody plays, the token that would fill it', () => {
    const roles = describeRoles([t('1/1')], allocateTokens([t('1/1')]), { allowDelete: true, restrictedKeys: 1, restrictedMayDelete: false });
    expect(roles.tokens).toEqual([{ token: '1/1', roles: ['own-delete', 'restricted-target'] }]);
    expect(roles.empty.map((e) => e.role)).toEqual(['cross-account', 'concurrent-delete', 'bystander']);
    expect(roles.empty[0]!.fill).toContain('a --token of a second service account');
    expect(roles.empty[2]!.fill).toMatch(/2\/1 beside 1\/1/);
  });
});
