import type { Operation } from './operation.ts';

export type RouteMatch =
  | { kind: 'operation'; operation: Operation; rawParams: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

export type DecodedParams =
  | { ok: true; params: Record<string, string> }
  | { ok: false; param: string; raw: string };

interface CompiledPath {
  pattern: RegExp;
  paramNames: string[];
  byMethod: Map<string, Operation>;
}

/**
 * Builds the route lookup from the spec's paths. Matching runs on the raw (still
 * percent-encoded) path, so an encoded `/` (`%2F`) inside an id stays inside that id.
 */
export function createRouteMatcher(operations: readonly Operation[]): (method: string, pathname: string) => RouteMatch {
  const paths = new Map<string, CompiledPath>();
  for (const operation of operations) {
    let compiled = paths.get(operation.path);
    if (!compiled) {
      const paramNames: string[] = [];
      const source = operation.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const param = /^\{([^}]+)\}$/.exec(part);
          if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          paramNames.push(param[1]!);
          return '([^/]+)';
        })
        .join('');
      compiled = { pattern: new RegExp(`^${source}$`), paramNames, byMethod: new Map() };
      paths.set(operation.path, compiled);
    }
    compiled.byMethod.set(operation.method, operation);
  }

  // Concrete paths before templated ones that also match (OAS 3.1 §4.8.8: `/users/me` before `/users/{id}`).
  const compiledPaths = [...paths.values()].sort((a, b) => a.paramNames.length - b.paramNames.length);
  return (method, pathname) => {
    for (const { pattern, paramNames, byMethod } of compiledPaths) {
      const found = pattern.exec(pathname);
      if (!found) continue;
      // The method token is case-sensitive (RFC 9110 §9.1): `delete` is not DELETE but a method the path does not list (spec decision unlisted-methods).
      // HEAD is GET without the body (RFC 9110 §9.3.2; spec decision head-requests): adapters drop the body.
      const operation = byMethod.get(method) ?? (method === 'HEAD' ? byMethod.get('GET') : undefined);
      if (!operation) return { kind: 'method-not-allowed', allow: allowed(byMethod) };
      const rawParams: Record<string, string> = {};
      paramNames.forEach((name, i) => (rawParams[name] = found[i + 1]!));
      return { kind: 'operation', operation, rawParams };
    }
    return { kind: 'not-found' };
  };
}

/** The methods a path answers: its operations', and HEAD wherever GET is. */
function allowed(byMethod: ReadonlyMap<string, Operation>): string[] {
  const methods = [...byMethod.keys()];
  return byMethod.has('GET') && !byMethod.has('HEAD') ? [...methods, 'HEAD'] : methods;
}

/** A percent-encoded text decoded (RFC 3986 §2.1), or as it is when it is not valid percent-encoding. */
export function decodedOrAsIs(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Percent-decodes path parameters; malformed encoding is reported, never thrown. */
export function decodePathParams(rawParams: Record<string, string>): DecodedParams {
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(rawParams)) {
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      return { ok: false, param: name, raw };
    }
  }
  return { ok: true, params };
}
