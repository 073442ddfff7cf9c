/**
 * The key an `Authorization` header value presents (spec decision key-in-header-only): the value
 * itself, or what follows `Bearer` (scheme in any case, one or more spaces: RFC 9110 §11.1,
 * §11.4). Spaces and tabs around a field value are not part of it (RFC 9110 §5.5); any other
 * character, Unicode whitespace such as U+00A0 included, is, so the key is compared with it.
 * The mock authenticates with it and the conformance model reads traffic with it: one reading.
 */
export function presentedKey(value: string): string {
  const trimmed = value.replace(OPTIONAL_WHITESPACE, '');
  return BEARER.test(trimmed) ? trimmed.replace(BEARER, '') : trimmed;
}

const BEARER = /^bearer +/i;
const OPTIONAL_WHITESPACE = /^[ \t]+|[ \t]+$/g;
