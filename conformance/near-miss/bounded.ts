import { pick, type Random } from '../seeded-random.ts';

/**
 * At most `budget` of the variants, in their order: one of each family first (so every rule of
 * a grammar is tried in every run), the rest drawn with the run's seed. All of them when they fit.
 */
export function bounded<T extends { family: string }>(variants: readonly T[], budget: number, random: Random): T[] {
  if (variants.length <= budget) return [...variants];
  const chosen = new Set<number>();
  const families = new Map<string, number[]>();
  variants.forEach((variant, i) => {
    let members = families.get(variant.family);
    if (!members) families.set(variant.family, (members = []));
    members.push(i);
  });
  for (const members of families.values()) if (chosen.size < budget) chosen.add(members[pick(random, members.length)]!);
  const rest = variants.map((_, i) => i).filter((i) => !chosen.has(i));
  while (chosen.size < budget && rest.length > 0) chosen.add(rest.splice(pick(random, rest.length), 1)[0]!);
  return variants.filter((_, i) => chosen.has(i));
}
