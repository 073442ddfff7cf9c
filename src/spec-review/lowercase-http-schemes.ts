import type { JsonSchema } from '../contract/index.ts';

/**
 * Writes, in place, each HTTP security scheme's name in lower case: RFC 9110 §11.1 makes an
 * authentication scheme name case-insensitive, so `Bearer` is `bearer`. Lint corrects the copy it
 * validates with it (the bundled 3.1 schema says `const: bearer`); the diff reads both versions
 * through it, so a change of case is no change anywhere the diff looks.
 */
export function lowercaseHttpSchemes(document: JsonSchema): void {
  const schemes = (document.components as JsonSchema | undefined)?.securitySchemes;
  for (const scheme of Object.values(schemes && typeof schemes === 'object' ? (schemes as Record<string, JsonSchema>) : {})) {
    if (scheme && scheme.type === 'http' && typeof scheme.scheme === 'string') scheme.scheme = scheme.scheme.toLowerCase();
  }
}
