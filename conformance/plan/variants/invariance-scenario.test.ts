import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/index.ts';
import type { PlanInput } from '../scenarios/plan-input.ts';
import { planInputFor } from '../scenarios/plan-input.fixture.ts';
import { invarianceScenario } from './invariance-scenario.ts';
import { CLIENT_ACCEPT_ENCODINGS, PATH_SPELLINGS, VARIANT_KINDS, VARIANT_KIND, spellPath } from './variant-kinds.ts';

const contract = await loadContract({ validate: false });
const input = (seed: string, overrides: Partial<PlanInput> = {}): PlanInput => planInputFor(contract, { seed, ...overrides });

describe('the invariance variants of a run', () => {
  it.each(['1', '2', 'abc'])('meet every operation and every credential class with every kind (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    for (const { kind, keyed, ownBatch, content, keyIn, fullOnLater, fullEveryOperation, fullGetsEachTurn, codingSequence, serverWide, methodSequence } of VARIANT_KINDS) {
      // Not sampled: the pipelined batch, the coding sequence (below), the requests with content (two, below), the full key's on one read and the delete's path (below), the kinds on the reads (below), and the server-wide requests (below).
      if (ownBatch || codingSequence || content !== undefined || fullOnLater || fullGetsEachTurn || serverWide || methodSequence) continue;
      const mine = requests.filter((r) => r.variant?.kind === kind);
      expect(new Set(mine.map((r) => r.operationId)).size, kind).toBe(3);
      // HEAD covers the credentials on every GET; the token path, which has no GET, gets one.
      if (kind === 'head') continue;
      // An empty Authorization, or the key in another header without Authorization, is the credential class none.
      // A message HTTP makes invalid goes with the full key only (what it must not get is the full key's answer).
      expect(new Set(mine.map((r) => r.credential)), kind).toEqual(new Set(kind === 'empty-authorization' || keyIn ? ['none'] : fullEveryOperation ? ['full'] : keyed ? ['full', 'restricted', 'invalid'] : ['full', 'restricted', 'none', 'invalid']));
    }
  });

  it.each(['1', '2', 'abc'])('sends OPTIONS * and CONNECT host:port once each, last, each on a connection of its own, with a credential class drawn from the seed (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const serverWide = requests.slice(-2);
    expect(serverWide.map((r) => [r.variant?.kind, r.method])).toEqual([
      ['asterisk-form', 'OPTIONS'],
      ['authority-form', 'CONNECT'],
    ]);
    expect(requests.filter((r) => r.variant?.kind === 'asterisk-form' || r.variant?.kind === 'authority-form')).toHaveLength(2);
    const chains = new Set(requests.slice(0, -2).map((r) => r.variant!.chain));
    for (const r of serverWide) expect(chains.has(r.variant!.chain), r.label).toBe(false);
    expect(serverWide[0]!.variant!.chain).not.toBe(serverWide[1]!.variant!.chain);
    expect(invarianceScenario(input(seed)).requests.slice(-2).map((r) => r.credential)).toEqual(serverWide.map((r) => r.credential));
  });

  // Red team round seventeen: a cache keyed without the method hands what it stored for one request to the next of the same URL and key.
  it.each(['1', '2', 'abc'])('sends the method sequence: another method (or a conditional GET), then the plain request, same URL and key, one connection, a URL per pair (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const sequence = requests.filter((r) => VARIANT_KIND.get(r.variant!.kind)!.methodSequence !== undefined);
    expect(sequence).toHaveLength(20);
    expect(new Set(sequence.map((r) => r.variant!.chain)).size).toBe(1);
    // Consecutive in the run's order.
    const at = requests.indexOf(sequence[0]!);
    expect(requests.slice(at, at + sequence.length)).toEqual(sequence);
    const pairs = Array.from({ length: sequence.length / 2 }, (_, i) => [sequence[2 * i]!, sequence[2 * i + 1]!] as const);
    for (const [first, then] of pairs) {
      expect(VARIANT_KIND.get(first.variant!.kind)!.methodSequence, first.label).toBe('before');
      expect(then.variant!.kind).toBe('after-other-method');
      expect([then.path, then.credential, then.operationId]).toEqual([first.path, first.credential, first.operationId]);
      expect(then.method).toBe(then.operationId === 'deleteServiceAccountToken' ? 'DELETE' : 'GET');
      expect(first.method === then.method && first.variant!.kind !== 'conditional-before', first.label).toBe(false);
    }
    expect(new Set(pairs.map(([first]) => first.path)).size).toBe(pairs.length);
    // The full key on every read with every first kind.
    for (const read of ['getProjectEnvironments', 'getOidcSettings']) {
      expect(new Set(pairs.filter(([f]) => f.operationId === read && f.credential === 'full').map(([f]) => f.variant!.kind))).toEqual(new Set(['head-before', 'options-before', 'unlisted-before', 'conditional-before']));
    }
    // The restricted key only on what it may call.
    expect(pairs.filter(([f]) => f.credential === 'restricted').map(([f]) => f.operationId)).toEqual(['getProjectEnvironments']);
  });

  it('draws the server-wide requests\' credential classes from the seed: over seeds, every class', () => {
    const drawn = new Set(['1', '2', 'abc', 'd', 'e', 'f', 'g', 'h'].flatMap((seed) => invarianceScenario(input(seed)).requests.slice(-2).map((r) => r.credential)));
    expect(drawn).toEqual(new Set(['full', 'restricted', 'none', 'invalid']));
  });

  it.each(['1', '2', 'abc'])('sends every path spelling with a key that must be refused, and the invalid message forms with the full key, the delete on the unknown token (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const spelled = requests.filter((r) => r.variant?.kind === 'path-spellings');
    const refused = spelled.filter((r) => r.credential === 'none' || r.credential === 'invalid');
    expect(refused.map((r) => r.variant!.alternative).sort()).toEqual(PATH_SPELLINGS.map((_, i) => i));
    expect(spelled.filter((r) => r.credential === 'restricted').map((r) => r.operationId)).toHaveLength(1);
    expect(spelled.filter((r) => r.credential === 'full').every((r) => r.method === 'GET')).toBe(true);
    for (const kind of ['host-lines', 'authorization-twice'] as const) {
      const mine = requests.filter((r) => r.variant?.kind === kind);
      expect(mine.every((r) => r.credential === 'full')).toBe(true);
      expect(mine.find((r) => r.method === 'DELETE')!.path).toMatch(/no-such/);
    }
  });

  it.each(['1', '2', 'abc'])('sends Range and the lenient dates on the reads: every turn with the full key on a given resource, each read at least once, Range once with every other key (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const gets = contract.operations.filter((o) => o.method === 'GET').map((o) => o.operationId).sort();
    for (const kind of ['range', 'conditional-lenient'] as const) {
      const spec = VARIANT_KIND.get(kind)!;
      const full = requests.filter((r) => r.variant?.kind === kind && r.credential === 'full');
      expect(full.every((r) => r.method === 'GET' && r.variant!.resource === 'given'), kind).toBe(true);
      expect([...new Set(full.map((r) => r.operationId))].sort(), kind).toEqual(gets);
      expect([...new Set(full.map((r) => r.variant!.alternative))].sort(), kind).toEqual(spec.alternatives!.map((_, i) => i));
    }
    const others = requests.filter((r) => r.variant?.kind === 'range' && r.credential !== 'full');
    expect(others.map((r) => r.credential).sort()).toEqual(['invalid', 'none', 'restricted']);
    expect(others.every((r) => r.method === 'GET' && r.variant!.alternative === 0)).toBe(true);
    expect(requests.filter((r) => r.variant?.kind === 'conditional-lenient')).toHaveLength(2);
  });

  it('spells one slash of the path as routers may read it, the query left alone', () => {
    const path = '/api/admin/environments/project/default?_=1';
    expect(PATH_SPELLINGS.map((s) => spellPath(path, s))).toEqual([
      '/api/admin\\environments/project/default?_=1',
      '/api//admin/environments/project/default?_=1',
      '/api/admin/./environments/project/default?_=1',
      '/api;/admin/environments/project/default?_=1',
      '/api/admin%2Fenvironments/project/default?_=1',
      '/api%5Cadmin/environments/project/default?_=1',
    ]);
  });

  it.each(['1', '2', 'abc', 'flag-admin'])('spells the auth field name in upper or mixed case, never as a gateway passes it on (seed %s)', (seed) => {
    const names = invarianceScenario(input(seed)).requests.filter((r) => r.variant?.kind === 'authorization-other-case').map((r) => r.variant!.authName!);
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const name of names) {
      expect(name.toLowerCase()).toBe('authorization');
      expect(['Authorization', 'authorization']).not.toContain(name);
    }
  });

  it.each(['1', '2', 'abc', 'flag-admin'])("sends POST with a method override only where it changes nothing the run needs: the full key on a resource that cannot exist, the restricted key on an operation it lacks (seed %s)", (seed) => {
    const posts = invarianceScenario(input(seed)).requests.filter((r) => r.variant?.kind === 'method-override-post');
    expect(posts.every((r) => r.method === 'POST')).toBe(true);
    expect(posts.filter((r) => r.credential === 'full').map((r) => r.variant!.resource)).toEqual(['missing']);
    expect(posts.find((r) => r.credential === 'full')!.path).toMatch(/no-such/);
    expect(['getOidcSettings', 'deleteServiceAccountToken']).toContain(posts.find((r) => r.credential === 'restricted')!.operationId);
  });

  it.each(['1', '2', 'abc'])("names another read's path in the path headers, for the restricted key one whose permission differs (seed %s)", (seed) => {
    const named = invarianceScenario(input(seed)).requests.filter((r) => r.variant?.kind === 'path-headers');
    expect(named.length).toBeGreaterThanOrEqual(4);
    for (const r of named) expect(r.variant!.namedPath).toMatch(/^\/api\/admin\//);
    for (const r of named.filter((n) => n.credential === 'restricted')) {
      const lacks = (path: string) => path.includes('/oidc/');
      expect(lacks(r.variant!.namedPath!)).toBe(r.operationId === 'getProjectEnvironments');
    }
  });

  it('is a sample, not the cross product, and the same for the same seed', () => {
    const a = invarianceScenario(input('7')).requests;
    expect(a.length).toBeLessThan(VARIANT_KINDS.length * 3 * 4);
    expect(invarianceScenario(input('7')).requests).toEqual(a);
    expect(invarianceScenario(input('8')).requests).not.toEqual(a);
  });

  it('sends HEAD on every GET with every credential, the full key on a missing resource too, and on the token path once', () => {
    const heads = invarianceScenario(input('3')).requests.filter((r) => r.variant?.kind === 'head');
    expect(heads).toHaveLength(2 * 4 + 1 + 1);
    expect(heads.some((r) => r.path.endsWith('/no-such-project-x') && r.credential === 'full')).toBe(true);
  });

  it('never sends the full key to a token the run deletes, and tries refused keys on a given token', () => {
    const deletes = invarianceScenario(input('4')).requests.filter((r) => r.operationId === 'deleteServiceAccountToken');
    // The query variant appends a query string to the same resource: compared without it.
    const resource = (r: { path: string }) => r.path.split('?')[0]!;
    // But a POST with ?_method= (it must change nothing): on the token the run deletes itself, so that a delete it ran shows there too.
    expect(deletes.filter((r) => r.credential === 'full' && r.variant?.kind !== 'method-override-query').every((r) => resource(r).endsWith('/no-such-token'))).toBe(true);
    expect(deletes.filter((r) => r.credential === 'full' && r.variant?.kind === 'method-override-query').map((r) => [r.method, r.path])).toEqual([['POST', '/api/admin/service-account/1/token/1?_method=DELETE']]);
    expect(deletes.filter((r) => r.method === 'DELETE' && r.credential === 'full').every((r) => resource(r).endsWith('/no-such-token'))).toBe(true);
    expect(deletes.filter((r) => r.credential === 'none' && r.variant?.resource !== 'missing').every((r) => resource(r).endsWith('/1/token/1'))).toBe(true);
    // An OPTIONS without a key also goes to a token that cannot exist: whether its answer tells the two apart.
    const keylessMissing = deletes.filter((r) => r.credential === 'none' && r.variant?.resource === 'missing');
    expect(keylessMissing.map((r) => r.variant!.kind).sort()).toEqual(['options', 'preflight']);
    expect(keylessMissing.every((r) => resource(r).endsWith('/no-such-token'))).toBe(true);
  });

  it.each(['1', '2', 'abc'])('pipelines one batch on a connection of its own: each GET with the full key and a refused one, every read followed by another operation and status (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const batch = requests.filter((r) => r.variant?.kind === 'pipelined');
    expect(batch).toHaveLength(4);
    expect(batch.every((r) => r.variant!.pipelined && r.variant!.chain === batch[0]!.variant!.chain && r.method === 'GET')).toBe(true);
    expect(requests.filter((r) => r.variant?.chain === batch[0]!.variant!.chain)).toEqual(batch);
    expect(new Set(batch.map((r) => r.operationId))).toEqual(new Set(['getProjectEnvironments', 'getOidcSettings']));
    for (let i = 0; i < 3; i++) {
      expect(batch[i]!.credential === 'full').not.toBe(batch[i + 1]!.credential === 'full');
      if (i !== 1) expect(batch[i]!.operationId).not.toBe(batch[i + 1]!.operationId);
    }
  });

  it.each(['1', '2', 'abc', '6'])('sends one coding sequence: a coded read, HEAD under the same Accept-Encoding, identity on that connection, identity on a fresh one, one URL of its own (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const sequence = requests.filter((r) => ['coded-read', 'coded-head', 'identity-after-coded'].includes(r.variant!.kind));
    expect(sequence.map((r) => `${r.method} ${r.variant!.kind}`)).toEqual(['GET coded-read', 'HEAD coded-head', 'GET identity-after-coded', 'GET identity-after-coded']);
    expect(sequence.every((r) => r.credential === 'full' && r.variant!.resource === 'given' && r.path === sequence[0]!.path && r.operationId === sequence[0]!.operationId)).toBe(true);
    expect(sequence[0]!.path).toMatch(/\?_=\d{13}$/);
    expect(requests.filter((r) => r.path === sequence[0]!.path)).toEqual(sequence);
    expect(sequence[1]!.variant!.alternative).toBe(sequence[0]!.variant!.alternative);
    // The first three one after another on one chain (one kept-alive connection), the last alone on the next.
    const chain = sequence[0]!.variant!.chain;
    expect(requests.filter((r) => r.variant!.chain === chain)).toEqual(sequence.slice(0, 3));
    expect(requests.filter((r) => r.variant!.chain === chain + 1)).toEqual(sequence.slice(3));
  });

  it('sends If-None-Match that matches nothing beside a matching If-Modified-Since on every GET, each tag form', () => {
    const { requests } = invarianceScenario(input('6'));
    const beside = requests.filter((r) => r.variant?.kind === 'if-none-match-beside-ims');
    expect(beside.every((r) => r.credential === 'full' && r.method === 'GET' && r.variant!.resource === 'given')).toBe(true);
    expect(new Set(beside.map((r) => r.operationId))).toEqual(new Set(['getProjectEnvironments', 'getOidcSettings']));
    expect(new Set(beside.map((r) => r.variant!.alternative))).toEqual(new Set([0, 1]));
  });

  it('sends every alternative Accept-Encoding, and the conditional kinds that replay a validator with the full key on every GET', () => {
    const { requests } = invarianceScenario(input('6'));
    const encodings = requests.filter((r) => r.variant?.kind === 'accept-encoding-refused');
    expect(new Set(encodings.map((r) => r.variant!.alternative))).toEqual(new Set([0, 1, 2, 3]));
    for (const kind of ['if-none-match-given', 'if-none-match-any', 'if-modified-since-recent']) {
      const full = requests.filter((r) => r.variant?.kind === kind && r.credential === 'full' && r.variant.resource === 'given' && r.method === 'GET');
      expect(new Set(full.map((r) => r.operationId)), kind).toEqual(new Set(['getProjectEnvironments', 'getOidcSettings']));
    }
  });

  it.each(['1', '2', 'abc', '9'])('never ends a connection with a request that may be answered without content (HEAD, a conditional read): bytes after it show on the next (seed %s)', (seed) => {
    const sampled = invarianceScenario(input(seed)).requests.filter((r) => !r.variant!.pipelined);
    const bodiless = (r: (typeof sampled)[number]) => r.method === 'HEAD' || (r.method === 'GET' && /^if-/.test(r.variant!.kind));
    sampled.forEach((r, i) => {
      if (bodiless(r)) expect(sampled[i + 1]?.variant!.chain, `${r.label} (request ${i})`).toBe(r.variant!.chain);
    });
  });

  it.each(['1', '2', 'abc', '9'])('sends content on the delete (full key, unknown token) and on a read\'s path with POST (invalid key), each followed on its connection by a full-key read (seed %s)', (seed) => {
    const sampled = invarianceScenario(input(seed)).requests.filter((r) => !r.variant!.pipelined);
    const withContent = sampled.filter((r) => r.variant!.kind === 'json-body');
    expect(withContent.map((r) => `${r.method} ${r.credential} ${r.variant!.resource}`).sort()).toEqual(['DELETE full missing', 'POST invalid given']);
    expect(withContent.find((r) => r.method === 'DELETE')!.path).toMatch(/\/1\/token\/no-such-token$/);
    for (const r of withContent) {
      const next = sampled[sampled.indexOf(r) + 1]!;
      expect(next.variant!.chain, r.label).toBe(r.variant!.chain);
      expect([next.method, next.credential, next.variant!.resource]).toEqual(['GET', 'full', 'given']);
    }
  });

  // Red team round eleven: Chrome's `gzip, deflate, br, zstd` got 500. RFC 9110 §12.5.3: a coding a server does not know is ignored.
  it.each(['1', '2', 'abc', 'flag-admin'])("sends every real client's Accept-Encoding, and one that lists zstd to every operation with every credential class (seed %s)", (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const acceptEncoding = (r: (typeof requests)[number]): string | undefined => {
      const spec = VARIANT_KIND.get(r.variant!.kind)!;
      const headers = [...(spec.add ?? []), ...(spec.alternatives?.[r.variant!.alternative ?? 0] ?? [])];
      const value = headers.find(([name]) => name === 'accept-encoding')?.[1];
      return typeof value === 'string' ? value : undefined;
    };
    const sent = new Set(requests.map(acceptEncoding));
    for (const value of Object.values(CLIENT_ACCEPT_ENCODINGS)) expect(sent, value).toContain(value);
    const zstd = requests.filter((r) => /\bzstd\b/.test(acceptEncoding(r) ?? ''));
    expect(new Set(zstd.map((r) => r.operationId))).toEqual(new Set(['getProjectEnvironments', 'getOidcSettings', 'deleteServiceAccountToken']));
    expect(new Set(zstd.map((r) => r.credential))).toEqual(new Set(['full', 'restricted', 'none', 'invalid']));
  });

  it('gives the restricted key an operation it lacks, where it lacks one', () => {
    const restricted = invarianceScenario(input('5')).requests.filter((r) => r.credential === 'restricted' && r.variant?.kind === 'x-requested-with');
    expect(restricted.map((r) => r.operationId)).not.toContain('getProjectEnvironments');
  });
});

describe('the variants of red team round nine', () => {
  it.each(['1', '2', 'abc'])('send the full key once on one read with path parameters and on the delete\'s path only where the request is no DELETE (seed %s)', (seed) => {
    const { requests } = invarianceScenario(input(seed));
    const later = (kind: string) => requests.filter((r) => r.variant?.kind === kind).map((r) => `${r.credential} ${r.method} ${r.operationId}`).sort();
    expect(later('method-override-query')).toEqual(['full POST deleteServiceAccountToken', 'full POST getProjectEnvironments']);
    expect(later('if-none-match-other')).toEqual(['full GET getProjectEnvironments']);
  });

  it.each(['1', '2', 'abc'])('give every keyless key-elsewhere request another Host value, each value once on three operations (seed %s)', (seed) => {
    const hosts = invarianceScenario(input(seed)).requests.filter((r) => r.variant?.kind === 'key-elsewhere');
    expect(hosts.every((r) => r.credential === 'none')).toBe(true);
    expect(hosts.map((r) => r.variant!.alternative).sort()).toEqual([0, 1, 2]);
    expect(hosts.map((r) => r.label.split(': host ')[1]).sort()).toEqual(['"127.0.0.1"', '"[::1]:<port>"', '"localhost"']);
  });

  it('end the query variant with the parameters frameworks read and a value like a static file', () => {
    const queries = invarianceScenario(input('1')).requests.filter((r) => r.variant?.kind === 'query');
    for (const { path } of queries) {
      const query = new URLSearchParams(path.split('?')[1]);
      expect(query.getAll('_')).toHaveLength(2);
      for (const name of ['a[]', 'callback', 'format', '_format', 'pretty', 'fields']) expect(query.has(name), name).toBe(true);
      expect(path).toMatch(/\.css$/);
    }
  });
});
