import { pick, type Random } from '../seeded-random.ts';

/**
 * At most `budget` of the variants, in their order: one of each family first, then one of each
 * rule (a family's variants told apart by what they do, not by which character or position the
 * seed drew), so every rule of a grammar is tried in every run that has room for it; the rest is
 * drawn with the run's seed. All of them when they fit. `covered` holds the families and rules
 * that earlier calls of the same run already took (several projects sharing one budget): those
 * come after the ones no call has met yet, so that together the calls meet every rule; the ones
 * taken here are added to it.
 */
export function bounded<T extends { family: string; describe: string }>(variants: readonly T[], budget: number, random: Random, covered?: Set<string>): T[] {
  // Each variant's family and rule, made once: ruleOf runs three regular expressions, and the passes below read them four times.
  const keys = variants.map((v) => [`family ${v.family}`, `rule ${v.family} ${ruleOf(v.describe)}`] as const);
  if (variants.length <= budget) {
    for (const k of keys) for (const key of k) covered?.add(key);
    return [...variants];
  }
  const chosen = new Set<number>();
  const firstOf = (which: 0 | 1, fresh: boolean) => {
    const groups = new Map<string, number[]>();
    keys.forEach((both, i) => {
      const k = both[which];
      if ((covered?.has(k) ?? false) === fresh) return;
      let members = groups.get(k);
      if (!members) groups.set(k, (members = []));
      members.push(i);
    });
    for (const members of groups.values()) if (chosen.size < budget && !members.some((i) => chosen.has(i))) chosen.add(members[pick(random, members.length)]!);
  };
  for (const fresh of [true, false]) {
    firstOf(0, fresh);
    firstOf(1, fresh);
  }
  const rest = variants.map((_, i) => i).filter((i) => !chosen.has(i));
  while (chosen.size < budget && rest.length > 0) chosen.add(rest.splice(pick(random, rest.length), 1)[0]!);
  const out: T[] = [];
  variants.forEach((v, i) => {
    if (!chosen.has(i)) return;
    out.push(v);
    for (const key of keys[i]!) covered?.add(key);
  });
  return out;
}

/** What a variant does, without what the seed drew: `with U+00A0 after it` and `with U+3000 after it` are one rule. */
function ruleOf(describe: string): string {
  return describe.replace(/U\+[0-9A-F]{4,6}/g, 'U+X').replace(/"[^"]*"/g, '"X"').replace(/\d+/g, 'N');
}
