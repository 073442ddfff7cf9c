/**
 * The verbs of `flag-admin spec`, in the order help lists them. Apart from spec-command.ts (which
 * maps each to its runner, typed so that a verb without one does not compile) so that
 * `flag-admin help` lists them without loading the linter.
 */
export const SPEC_VERBS = ['lint', 'decisions', 'bundle', 'diff', 'compare'] as const;
export type SpecVerb = (typeof SPEC_VERBS)[number];
