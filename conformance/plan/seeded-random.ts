// node:crypto's CommonJS exports, taken where used: an ESM import builds its namespace, whose getters load webcrypto and the key
// classes at every check start (as src/contract/parsed-spec.ts takes it).
const createHash = (algorithm: string) => process.getBuiltinModule('node:crypto').createHash(algorithm);

/** A function returning numbers in [0, 1), the same sequence for the same seed. */
export type Random = () => number;

/** mulberry32: a small seeded PRNG, so a run (or a test) reproduces from the seed it prints. */
export function seededRandom(seed: number): Random {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A generator for one purpose of a run, from the run's printed seed (`--seed`): each purpose
 * draws its own sequence, so adding draws to one never changes what another generates.
 */
export function randomFor(seed: string, purpose: string): Random {
  return seededRandom(createHash('sha256').update(`${seed}/${purpose}`).digest().readInt32LE(0));
}

/** An integer in [0, n). */
export function pick(random: Random, n: number): number {
  return Math.floor(random() * n);
}
