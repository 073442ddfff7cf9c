// node:crypto's CommonJS exports, taken where used: an ESM import builds its namespace, whose getters load webcrypto and the key
// classes at every check start (as src/contract/parsed-spec.ts takes it).
const createHash = (algorithm: string) => process.getBuiltinModule('node:crypto').createHash(algorithm);

/**
 * An id derived from the seed, so the same options give the same requests and the same report
 * (DESIGN.md principle 6). The hash makes it practically impossible that a real project, token
 * or key has it.
 * @example generatedId('flag-admin', 'project') // 'no-such-project-…' (always the same)
 */
export function generatedId(seed: string, purpose: string): string {
  return `no-such-${purpose}-${createHash('sha256').update(`${seed}/${purpose}`).digest('hex').slice(0, 12)}`;
}
