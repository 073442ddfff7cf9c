import type { LintFinding, LintRule } from '../lint-finding.ts';
import { operationsIn } from '../operations-in.ts';

/**
 * API §5: every operation requires the API key, answers 401 when it is missing or invalid and 403
 * when it lacks the permission. A reviewer reads an operation alone, so each one carries its
 * operationId (the mock's handler and the generated types are keyed by it) and a summary.
 */
const AUTH_STATUSES = ['401', '403'];

export const operationBasics: LintRule = {
  ids: [
    { id: 'operation-operation-id', severity: 'error', summary: 'every operation (webhooks and callbacks too) has an operationId' },
    { id: 'operation-summary', severity: 'error', summary: 'every operation (webhooks and callbacks too) has a summary' },
    { id: 'operation-security', severity: 'error', summary: 'every operation the API serves requires a security scheme (its own `security` or the document\'s), none optional' },
    { id: 'operation-auth-responses', severity: 'error', summary: 'every operation the API serves documents 401 and 403 (API §5)' },
  ],
  needsContract: false,
  check({ rawDocument }) {
    const findings: LintFinding[] = [];
    // Webhooks and callbacks too: a reader meets them alone just the same.
    for (const { name, kind, pointer: at, operation } of operationsIn(rawDocument)) {
      if (typeof operation.operationId !== 'string' || operation.operationId === '') {
        findings.push({ ruleId: 'operation-operation-id', severity: 'error', pointer: at, onKey: true, message: `${name}: expected an operationId` });
      }
      if (typeof operation.summary !== 'string' || operation.summary.trim() === '') {
        findings.push({ ruleId: 'operation-summary', severity: 'error', pointer: at, onKey: true, message: `${name}: expected a summary` });
      }
      // API §5 is about the calls the API serves; a webhook or callback is a request it sends to the client.
      if (kind !== 'call') continue;
      // Read defensively: this rule also runs on a spec that failed the structure check.
      const ownSecurity = operation.security as unknown;
      const security = ownSecurity ?? rawDocument.security ?? [];
      // OAS 3.1 §4.8.30: an empty requirement object `{}` makes authentication optional.
      if (!Array.isArray(security) || security.length === 0 || security.some((requirement) => Object.keys(requirement ?? {}).length === 0)) {
        findings.push({
          ruleId: 'operation-security',
          severity: 'error',
          pointer: ownSecurity !== undefined ? `${at}/security` : at,
          onKey: true,
          message: `${name}: expected a required security scheme (API §5: every operation needs the API key), got ${JSON.stringify(security)}`,
        });
      }
      const responses = (operation.responses && typeof operation.responses === 'object' ? operation.responses : {}) as Record<string, unknown>;
      const missing = AUTH_STATUSES.filter((status) => !(status in responses));
      if (missing.length > 0) {
        findings.push({ ruleId: 'operation-auth-responses', severity: 'error', pointer: `${at}/responses`, onKey: true, message: `${name}: expected responses ${missing.join(' and ')} (API §5), documented: ${Object.keys(responses).join(', ') || 'none'}` });
      }
    }
    return findings;
  },
};
