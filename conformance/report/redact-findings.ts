import type { Redact } from './secret-redactor.ts';
import type { Finding } from '../types.ts';

/**
 * The one pass every finding goes through before any reporter sees it: each text that can quote
 * a server (message, expected, got, Content-Type, excerpt) is redacted on its decoded form, and
 * so is the request side (its URL, headers and curl line): the suite's hold key placeholders and
 * the user's own ids, a proxy's hold what a client sent, a key in the query included.
 */
export function redactFindings(findings: readonly Finding[], redact: Redact): Finding[] {
  return findings.map((finding) => ({
    ...finding,
    message: redact(finding.message),
    expected: redact(finding.expected),
    got: redact(finding.got),
    request: { ...finding.request, url: redact(finding.request.url), headers: Object.fromEntries(Object.entries(finding.request.headers).map(([name, value]) => [name, redact(value)])) },
    curl: redact(finding.curl),
    ...(finding.sequence ? { sequence: { ...finding.sequence, setup: finding.sequence.setup.map(redact), steps: finding.sequence.steps.map(redact) } } : {}),
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
