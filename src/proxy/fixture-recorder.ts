import { decodePathParams, type Contract, type Operation } from '../contract/index.ts';
import { requestPath } from '../mock/core/request-path.ts';
import type { ApiKeyRecord, InstanceEnvironment, MockState, ProjectEnvironmentConfig, ServiceAccountRecord } from '../mock/core/state.ts';

/** An exchange as the recorder sees it: the key only to tell keys apart, never kept. */
export interface ObservedExchange {
  method: string;
  target: string;
  key: string | undefined;
  response?: { status: number; body: string };
}

/** What --record writes: a fixture the mock loads, and the placeholder keys to print once. */
export interface RecordedFixture {
  state: MockState & { description: string };
  /** One line per placeholder key: the key and what it stands for (never the real key). */
  keys: string[];
}

/** What the fixture holds in place of a secret value of the OIDC settings (API §2.2 writes it <OIDC_SECRET>). */
export const SECRET_PLACEHOLDER = '<OIDC_SECRET>';

/**
 * Turns the traffic a proxy saw into the state that answers it (flag-admin proxy --record): the
 * projects whose environments were read and the instance environments they listed, the OIDC
 * settings with secrets replaced, the service accounts and tokens a delete found (as they were
 * before it, so the same delete succeeds on the recording), and one placeholder key per key seen,
 * allowed the operations it got a 2xx on. What the traffic cannot tell is said in `description`,
 * never invented. A response that does not keep the spec teaches nothing and is left out.
 */
export function createFixtureRecorder(contract: Contract, newKey: () => string = () => `recorded-${crypto.randomUUID()}`) {
  const environments = new Map<string, InstanceEnvironment>();
  const projects = new Map<string, ProjectEnvironmentConfig[]>();
  const accounts = new Map<string, Set<string>>();
  // By key value, in memory only: the file gets the placeholder.
  const keys = new Map<string, { placeholder: string; allowed: Set<string>; refused: Set<string>; firstSeen: string }>();
  const unknowns = new Set<string>();
  let oidc: Record<string, unknown> | undefined;

  const observe = (exchange: ObservedExchange): void => {
    const route = contract.matchRoute(exchange.method, requestPath(exchange.target));
    const response = exchange.response;
    if (route.kind !== 'operation' || !response) return;
    const operation = route.operation;
    const decoded = decodePathParams(route.rawParams);
    if (!decoded.ok) return;
    const params = operation.pathParams.map((name) => decoded.params[name]!);
    const spec = operation.responses.get(String(response.status));
    let body: unknown;
    try {
      body = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      return;
    }
    if (spec?.schema && spec.validate(body).length > 0) return;
    noteKey(exchange, operation, response.status);
    const success = response.status >= 200 && response.status < 300;
    if (!success) return;
    if (spec?.schema && isEnvironmentList(body) && params.length === 1) recordEnvironments(params[0]!, body.environments);
    else if (spec?.schema && body && typeof body === 'object' && !Array.isArray(body) && params.length === 0) oidc = withoutSecrets(body as Record<string, unknown>, contract.secretProperties);
    else if (!spec?.schema && operation.method === 'DELETE' && params.length >= 2) {
      const [account, token] = params as [string, string];
      if (!accounts.has(account)) accounts.set(account, new Set());
      accounts.get(account)!.add(token);
    }
  };

  const noteKey = (exchange: ObservedExchange, operation: Operation, status: number) => {
    if (!exchange.key || operation.authHeaders.length === 0) return;
    // A 401 says the key is not one at all: the recording leaves it out, and the mock refuses it alike.
    if (status === 401) return;
    let known = keys.get(exchange.key);
    if (!known) keys.set(exchange.key, (known = { placeholder: newKey(), allowed: new Set(), refused: new Set(), firstSeen: `${exchange.method} ${requestPath(exchange.target)}` }));
    if (status >= 200 && status < 300) known.allowed.add(operation.operationId);
    else if (status === 403) known.refused.add(operation.operationId);
  };

  const recordEnvironments = (projectId: string, listed: readonly Record<string, unknown>[]) => {
    const configs: ProjectEnvironmentConfig[] = [];
    for (const entry of listed) {
      const { name, type, protected: isProtected, sortOrder, enabled, projectApiTokenCount, projectEnabledToggleCount, defaultStrategy } = entry;
      if (typeof name !== 'string') continue;
      if (typeof type === 'string' && typeof isProtected === 'boolean' && typeof sortOrder === 'number') {
        if (!environments.has(name)) environments.set(name, { name, type, protected: isProtected, sortOrder });
      } else {
        unknowns.add(`environment ${JSON.stringify(name)} came without type, protected or sortOrder, which the mock needs: it is left out`);
        continue;
      }
      configs.push({
        name,
        // Listed means available, which means enabled in the project (API §4.1).
        enabled: enabled !== false,
        ...(typeof projectApiTokenCount === 'number' ? { projectApiTokenCount } : {}),
        ...(typeof projectEnabledToggleCount === 'number' ? { projectEnabledToggleCount } : {}),
        ...(defaultStrategy && typeof defaultStrategy === 'object' ? { defaultStrategy: defaultStrategy as ProjectEnvironmentConfig['defaultStrategy'] } : {}),
      });
    }
    projects.set(projectId, configs);
  };

  const fixture = (): RecordedFixture => {
    const apiKeys: ApiKeyRecord[] = [...keys.values()].map((k, i) => ({
      key: k.placeholder,
      description: `stands for key ${i + 1} of the traffic (first seen on ${k.firstSeen}); allowed: ${[...k.allowed].join(', ') || 'nothing seen'}; refused (403): ${[...k.refused].join(', ') || 'nothing seen'}`,
      permissions: [...k.allowed],
    }));
    const serviceAccounts: ServiceAccountRecord[] = [...accounts].map(([id, tokens]) => ({ id, tokens: [...tokens].map((token) => ({ id: token })) }));
    const notes = [
      'Recorded by flag-admin proxy from the traffic it forwarded.',
      'API keys are placeholders (printed once when the file was written); each may call the operations its key got a 2xx on, and nothing the traffic did not show.',
      'Projects: those whose environments were read; an environment a project has but did not list (disabled in it) cannot be seen and is absent.',
      'Instance environments: those some project listed.',
      oidc ? `OIDC settings: as last read, secret values replaced by ${SECRET_PLACEHOLDER}.` : 'OIDC settings: never read through the proxy; the fixture serves an empty settings object ({}), which no traffic showed.',
      'Service accounts and tokens: those a delete found (2xx), as they were before it; tokens never deleted cannot be seen and are absent.',
      ...[...unknowns].map((u) => `Not known: ${u}.`),
    ];
    return {
      state: {
        description: notes.join(' '),
        apiKeys,
        environments: [...environments.values()],
        projects: [...projects].map(([id, envs]) => ({ id, environments: envs })),
        oidcSettings: (oidc ?? {}) as MockState['oidcSettings'],
        serviceAccounts,
      } as RecordedFixture['state'],
      keys: apiKeys.map((k) => `${k.key}  ${k.description}`),
    };
  };

  return { observe, fixture };
}

function isEnvironmentList(body: unknown): body is { environments: Record<string, unknown>[] } {
  return !!body && typeof body === 'object' && Array.isArray((body as { environments?: unknown }).environments);
}

function withoutSecrets(settings: Record<string, unknown>, secretProperties: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, secretProperties.has(name) ? SECRET_PLACEHOLDER : value]));
}
