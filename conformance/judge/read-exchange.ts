import type { VariantKind } from '../plan/variants/variant-kinds.ts';
import type { Credential, Exchange } from '../types.ts';

/**
 * For judge tests: exchanges of the environments read of `default`, numbered in order, as the run
 * records them; with `kind`, a variant of that kind (the requests a variant judge reads against
 * the plain read before it).
 */
export function readExchanges(path = '/api/admin/environments/project/default') {
  let seq = 0;
  return (credential: Credential, response: Exchange['response'], sent: Record<string, string> = {}, kind?: VariantKind): Exchange => ({
    operationId: 'getProjectEnvironments',
    step: kind ? 'variant' : 'read',
    label: 'x',
    credential,
    method: 'GET',
    path,
    expects: [],
    seq: ++seq,
    request: { method: 'GET', url: path, headers: sent },
    ...(response ? { response } : {}),
    ...(kind ? { variant: { kind, chain: 0 } } : {}),
  });
}
