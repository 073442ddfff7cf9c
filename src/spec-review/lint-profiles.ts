// Apart from lint-spec.ts, which loads the linter: the CLI checks --profile before that import.
/**
 * `recommended`: what any OpenAPI document is held to, the structure check and Redocly's
 * recommended ruleset as Redocly ships it. `kit`: the kit's own rules besides (they hold API
 * §2.3, §5 and §7 of this kit's API), with Redocly's ruleset adjusted to them (lint-config.ts).
 */
export const LINT_PROFILES = ['recommended', 'kit'] as const;
export type LintProfile = (typeof LINT_PROFILES)[number];
