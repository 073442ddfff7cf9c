import type { Redact } from './secret-redactor.ts';
import type { Finding } from '../types.ts';

/**
 * The one pass every finding goes through before any reporter sees it: each text that can quote
 * a server (message, expected, got, Content-Type, excerpt) is redacted on its decoded form. The
 * request side holds key placeholders only and the user's own ids.
 */
export function redactFindings(findings: readonly Finding[], redact: Redact): Finding[] {
  return findings.map((finding) => ({
    ...finding,
    message: redact(finding.message),
    expected: redact(finding.expected),
    got: redact(finding.got),
    ...(finding.response
      ? {
          response: {
            ...finding.response,
            ...(finding.response.contentType !== undefined ? { contentType: redact(finding.response.contentType) } : {}),
            excerpt: redact(finding.response.excerpt),
          },
        }
      : {}),
  }));
}
