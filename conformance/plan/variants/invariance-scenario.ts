import type { Operation } from '../../../src/contract/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../../operation-ids.ts';
import { credentialName } from '../../credential-name.ts';
import type { Credential, PlannedRequest } from '../../types.ts';
import { pick, randomFor, type Random } from '../seeded-random.ts';
import { encodeId, pathOf, type PlanInput } from '../scenarios/plan-input.ts';
import { missingValues } from '../scenarios/probe-path.ts';
import type { ScenarioPlan } from '../scenarios/scenario-plan.ts';
import { allocateTokens } from '../scenarios/token-allocation.ts';
import { VARIANT_KIND, VARIANT_KINDS, turnLabel, turnsOf, type VariantKindSpec } from './variant-kinds.ts';

/** Requests per kept-alive connection: each one after the first is also a probe of what the one before left on the connection. */
const CHAIN_LENGTH = 6;

/** One cell of the sample: which kind meets which operation with which credential, on which resource. */
export interface VariantCell {
  kind: VariantKindSpec['kind'];
  operationId: string;
  credential: Credential;
  resource: 'given' | 'missing';
  /** Which of the kind's alternative header sets it sends. */
  alternative?: number;
}

/**
 * The invariance variants of a run (issue 18, DESIGN.md "Invariance"), sampled so that every
 * variant kind meets every operation and every credential class at least once (a covering of
 * both pairs, not their cross product: max(operations, credentials) requests a kind), seeded by
 * the run's seed. They are sent in chains on kept-alive connections in a seeded order, so each
 * request after the first of a chain is also sent on a connection that just carried another
 * key, a 401, a 404 or a HEAD (the connection dimension costs no request of its own).
 *
 * Resources: a variant never deletes what the run deletes later. The full key's deletes go to
 * a token that cannot exist; a key that must be refused (none, invalid, restricted where the
 * delete is --forbidden) is tried on a given token, so that a variant that gets past auth
 * shows, as a success now and as a 404 for the deletion step later.
 */
export function invarianceScenario(input: PlanInput): ScenarioPlan {
  const random = randomFor(input.seed, 'invariance variants');
  const credentials: Credential[] = input.hasRestrictedKey ? ['full', 'restricted', 'none', 'invalid'] : ['full', 'none', 'invalid'];
  const operations = input.contract.operations.filter((o) => o.authHeaders.length > 0);
  const cells: VariantCell[] = [];
  VARIANT_KINDS.forEach((spec, index) => {
    if (spec.ownBatch || spec.codingSequence || spec.serverWide || spec.methodSequence) return;
    // The key in another header (keyIn) goes without Authorization: only the credential class none.
    const creds = spec.emptyAuth || spec.keyIn || spec.hostNames ? (['none'] as Credential[]) : shuffled(spec.keyed ? credentials.filter((c) => c !== 'none') : credentials, random);
    const ops = shuffled(operations, random);
    if (spec.everyCell) {
      ops.forEach((operation, i) => {
        // A path without a GET gets HEAD with one credential class, a different one each run (drawn from the seed).
        const own = operation.method === 'GET' ? creds : [creds[i % creds.length]!];
        for (const credential of own) cells.push({ kind: spec.kind, operationId: operation.operationId, credential, resource: 'given' });
        if (operation.method === 'GET' && operation.pathParams.length > 0) cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'full', resource: 'missing' });
      });
      return;
    }
    // Only the full key: on the delete's path a token the run deletes later (idsFor), which only a request that must change nothing goes
    // to (a real DELETE would take the deletion step's token); and on one read's given resource, one with path parameters where there is
    // one (another resource of the same operation is what a cache or a router confuses first).
    if (spec.fullOnLater) {
      const reads = ops.filter((o) => o.method === 'GET');
      const read = reads.find((o) => o.pathParams.length > 0) ?? reads[0];
      for (const operation of ops.filter((o) => o === read || (o.method !== 'GET' && (spec.method?.(o.method) ?? o.method) !== 'DELETE'))) cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'full', resource: 'given' });
      return;
    }
    // Path spellings are about getting past auth: each spelling with a key that must be refused, then the restricted key where it lacks a
    // permission and the full key on a read (a server that normalizes answers it, one that does not refuses it), each with a drawn spelling.
    if (spec.refusedEach) {
      const turns = turnsOf(spec)!;
      const refused = shuffled(credentials.filter((c) => c === 'none' || c === 'invalid'), random);
      for (let i = 0; i < turns; i++) cells.push({ kind: spec.kind, operationId: ops[i % ops.length]!.operationId, credential: refused[i % refused.length]!, resource: 'given', alternative: i });
      const lacking = ops.find((o) => input.forbidden.has(o.operationId));
      if (credentials.includes('restricted') && lacking) cells.push({ kind: spec.kind, operationId: lacking.operationId, credential: 'restricted', resource: 'given', alternative: pick(random, turns) });
      const read = ops.find((o) => o.method === 'GET');
      if (read) cells.push({ kind: spec.kind, operationId: read.operationId, credential: 'full', resource: 'given', alternative: pick(random, turns) });
      return;
    }
    // The full key on every operation, the turns in turn: on a read's given resource, on the delete the unknown token (a server that takes the
    // message for an ordinary one deletes nothing the run needs, and answers 404 where 400 or 401 is due).
    if (spec.fullEveryOperation) {
      const turns = turnsOf(spec) ?? 1;
      ops.forEach((operation, i) => cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'full', resource: operation.method === 'GET' ? 'given' : 'missing', alternative: (i + index) % turns }));
      return;
    }
    // Each turn where a 200 shows what it changes (the full key on a given resource of a GET), the GETs in turn from the kind's place in the
    // list; then, where the kind asks, every other credential class once with the first turn: its answer must stay the refusal (or the
    // restricted key's own 200) the request without the variant gets.
    if (spec.fullGetsEachTurn) {
      const turns = turnsOf(spec) ?? 1;
      const gets = ops.filter((o) => o.method === 'GET');
      for (let i = 0; i < Math.max(turns, gets.length) && gets.length > 0; i++) cells.push({ kind: spec.kind, operationId: gets[i % gets.length]!.operationId, credential: 'full', resource: 'given', alternative: (i + index) % turns });
      if (spec.othersOnFirstTurn) {
        creds.filter((c) => c !== 'full').forEach((credential, i) => {
          const get = (credential === 'restricted' ? gets.find((o) => input.forbidden.has(o.operationId)) : undefined) ?? gets[i % gets.length];
          if (get) cells.push({ kind: spec.kind, operationId: get.operationId, credential, resource: 'given', alternative: 0 });
        });
      }
      return;
    }
    if (spec.content !== undefined) {
      for (const operation of ops.filter((o) => o.method !== 'GET')) cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'full', resource: 'missing' });
      const read = ops.find((o) => o.method === 'GET');
      const refused = credentials.includes('invalid') ? 'invalid' : 'none';
      if (read) cells.push({ kind: spec.kind, operationId: read.operationId, credential: refused, resource: 'given' });
      return;
    }
    const pairs = Array.from({ length: Math.max(creds.length, ops.length) }, (_, i) => ({ operation: ops[i % ops.length]!, credential: creds[i % creds.length]! }));
    // The restricted key shows most where it must be refused: it gets an operation it lacks the permission for (--forbidden), where there is one.
    const restricted = pairs.find((p) => p.credential === 'restricted');
    const lacking = pairs.find((p) => p.credential !== 'restricted' && input.forbidden.has(p.operation.operationId));
    if (restricted && lacking && !input.forbidden.has(restricted.operation.operationId)) [restricted.operation, lacking.operation] = [lacking.operation, restricted.operation];
    // fullOnMissing: the full key needs a resource that cannot exist, so an operation with ids (traded with a key that is refused anyway).
    const full = pairs.find((p) => p.credential === 'full');
    const withIds = pairs.find((p) => (p.credential === 'none' || p.credential === 'invalid') && p.operation.pathParams.length > 0);
    if (spec.fullOnMissing && full && withIds && full.operation.pathParams.length === 0) [full.operation, withIds.operation] = [withIds.operation, full.operation];
    for (let i = 0; i < pairs.length; i++) {
      const { operation, credential } = pairs[i]!;
      // The full key alternates between a given and a missing resource from kind to kind (a 404 left on the connection).
      const resource = credential === 'full' && (spec.fullOnMissing || (index + i) % 2 === 0) ? 'missing' : 'given';
      // Only where a missing resource can be named: the full key's POST never goes to the one resource of a path without ids.
      if (spec.fullOnMissing && credential === 'full' && operation.pathParams.length === 0) continue;
      cells.push({ kind: spec.kind, operationId: operation.operationId, credential, resource });
    }
    // A real 304 needs the full key on a resource that exists: only then does the answer to a validator the server gave show what a 304 carries.
    if (spec.fullOnEveryGet) {
      for (const operation of ops.filter((o) => o.method === 'GET')) {
        if (!cells.some((c) => c.kind === spec.kind && c.operationId === operation.operationId && c.credential === 'full' && c.resource === 'given')) cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'full', resource: 'given' });
      }
    }
    // Spec decision required-request-headers: what the spec does not name changes no answer, a success included. A change that
    // only a refusal meets (an invalid key's 401) hides a server that 404s `default?_=…`: each such kind also reads every GET with the full key.
    if (spec.check === 'headers-ignored' && !spec.emptyAuth && !spec.sampleOnly) {
      for (const operation of ops.filter((o) => o.method === 'GET')) {
        if (!cells.some((c) => c.kind === spec.kind && c.operationId === operation.operationId && c.credential === 'full' && c.resource === 'given')) cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'full', resource: 'given' });
      }
    }
    // A query parameter named like a path parameter must not delete what it names: the full key's delete too (on the unknown token, whatever the sample drew).
    if (spec.fullOnEveryOperation) {
      for (const operation of ops.filter((o) => o.method !== 'GET')) {
        if (!cells.some((c) => c.kind === spec.kind && c.operationId === operation.operationId && c.credential === 'full')) cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'full', resource: 'missing' });
      }
    }
    // Spec decision options-requests: an OPTIONS tells a caller without a key no more than the same request without a key would (not whether a resource exists).
    if (spec.keylessBoth) {
      for (const operation of ops.filter((o) => o.pathParams.length > 0)) {
        for (const resource of ['given', 'missing'] as const) {
          if (!cells.some((c) => c.kind === spec.kind && c.operationId === operation.operationId && c.credential === 'none' && c.resource === resource)) cells.push({ kind: spec.kind, operationId: operation.operationId, credential: 'none', resource });
        }
      }
    }
    const turns = turnsOf(spec);
    const own = cells.filter((c) => c.kind === spec.kind);
    // authSchemes: the full key takes the spellings first (it has a cell on every GET, so at least two spellings), then the restricted
    // key, the invalid one last (it shows nothing of a spelling): rule auth-scheme-any-case compares one key's spellings.
    const rank = (c: VariantCell) => ['full', 'restricted', 'invalid'].indexOf(c.credential);
    const inTurn = spec.authSchemes ? [...own].sort((a, b) => rank(a) - rank(b)) : own;
    if (turns) inTurn.forEach((c, i) => (c.alternative = i % turns));
  });
  const order = lastLeavesNothing(afterEachHead(shuffled(cells, random), input), input);
  const chains = chainNumbers(order, input);
  const requests = order.map((cell, i) => variantRequest(cell, input, chains[i]!, random)).filter((r): r is PlannedRequest => r !== undefined);
  // The coding sequence: its own two chains after the sampled ones (a chain of its own keeps the reads one after the other on a connection).
  const codingChain = (chains.at(-1) ?? -1) + 1;
  const coding = codingSequence(operations, randomFor(input.seed, 'coding sequence'));
  for (const [i, cell] of coding.entries()) requests.push(variantRequest(cell, input, codingChain + (i === coding.length - 1 ? 1 : 0), random)!);
  const batch = pipelinedBatch(operations, credentials, input, random).map((cell) => variantRequest(cell, input, codingChain + (coding.length > 0 ? 2 : 0), random)!);
  for (const request of batch) request.variant!.pipelined = true;
  // The server-wide requests last, each on a fresh connection of its own: a CONNECT that a server takes up (a tunnel) or answers by
  // closing leaves nothing on a connection that another request could use.
  // The method sequence before them, on one connection of its own: each pair on a URL of its own.
  const methodChain = codingChain + (coding.length > 0 ? 2 : 0) + 1;
  const methods = methodSequence(operations, input, randomFor(input.seed, 'method sequence')).map(({ cell, pair }) => {
    const request = variantRequest(cell, input, methodChain, random)!;
    return { ...request, path: `${request.path}?${methodBuster(input, pair)}` };
  });
  const serverWideChain = methodChain + (methods.length > 0 ? 1 : 0);
  const serverWide = serverWideCells(operations, credentials, randomFor(input.seed, 'server-wide requests')).map((cell, i) => variantRequest(cell, input, serverWideChain + i, random)!);
  return { requests: [...requests, ...batch, ...methods, ...serverWide], skipped: [] };
}

/**
 * The server-wide requests of a run (kinds with serverWide: OPTIONS *, CONNECT host:port; red team round fifteen): one each, with one
 * credential class drawn from the seed per kind (its own draws, so the sample of the other kinds stays as it was), filed under an
 * operation drawn likewise. What they must not carry is any operation's data, whatever the operation they are filed under.
 */
function serverWideCells(operations: readonly Operation[], credentials: readonly Credential[], random: Random): VariantCell[] {
  if (operations.length === 0) return [];
  return VARIANT_KINDS.filter((spec) => spec.serverWide).map((spec) => ({ kind: spec.kind, operationId: operations[pick(random, operations.length)]!.operationId, credential: credentials[pick(random, credentials.length)]!, resource: 'given' as const }));
}

/**
 * One coding sequence per run (red team round fourteen; RFC 9110 §12.5.3, §8.6, §9.3.2): on one
 * read drawn from the seed, with the full key on its given resource, a read in one coding (gzip
 * or br, drawn), the HEAD under the same Accept-Encoding, and a read asking for identity; then
 * the identity read again on a fresh connection. A cache keyed without Accept-Encoding hands
 * the coded bytes to an identity read (content-coding-accepted); a HEAD skipped by compression
 * shows against the coded GET beside it (head-like-get). Four requests.
 */
function codingSequence(operations: readonly Operation[], random: Random): VariantCell[] {
  const reads = operations.filter((o) => o.method === 'GET');
  if (reads.length === 0) return [];
  const read = reads[pick(random, reads.length)]!;
  const turn = pick(random, turnsOf(VARIANT_KIND.get('coded-read')!)!);
  const cell = (kind: VariantCell['kind'], alternative?: number): VariantCell => ({ kind, operationId: read.operationId, credential: 'full', resource: 'given', ...(alternative === undefined ? {} : { alternative }) });
  return [cell('coded-read', turn), cell('coded-head', turn), cell('identity-after-coded'), cell('identity-after-coded')];
}

/**
 * The method sequence (red team round seventeen; spec decisions head-requests, requests-independent): pairs of requests of one URL
 * and key, one after the other on one connection, the first in another method than the operation's (HEAD, OPTIONS, a method the path
 * does not list) or conditional (If-None-Match: *), the second the operation's own plain request, which gets what it gets alone: a
 * cache keyed without the method (or the validators) hands it what it stored for the first. The full key on each read's given resource
 * with every first kind; the restricted key on each read it may call with one first kind drawn from the seed; with --allow-delete the
 * full key's delete of the unknown token after a GET of its URL. Each pair on a URL of its own (a cache-buster query, which changes no
 * answer: spec decision required-request-headers), so that no earlier answer is in a cache for it. 20 requests with the defaults.
 */
function methodSequence(operations: readonly Operation[], input: PlanInput, random: Random): { cell: VariantCell; pair: number }[] {
  const firsts = VARIANT_KINDS.filter((k) => k.methodSequence === 'before');
  const out: { cell: VariantCell; pair: number }[] = [];
  const pair = (operationId: string, credential: Credential, resource: VariantCell['resource'], first: VariantCell['kind']) => {
    const n = out.length / 2;
    out.push({ cell: { kind: first, operationId, credential, resource }, pair: n }, { cell: { kind: 'after-other-method', operationId, credential, resource }, pair: n });
  };
  for (const read of operations.filter((o) => o.method === 'GET')) {
    for (const first of firsts) pair(read.operationId, 'full', 'given', first.kind);
    if (input.hasRestrictedKey && !input.forbidden.has(read.operationId)) pair(read.operationId, 'restricted', 'given', firsts[pick(random, firsts.length)]!.kind);
  }
  const deletion = operations.find((o) => o.operationId === DELETE_SERVICE_ACCOUNT_TOKEN);
  if (deletion && input.allowDelete) pair(deletion.operationId, 'full', 'missing', 'unlisted-before');
  return out;
}

/** The cache-buster of the method sequence's pair `n`: jQuery's form, a time drawn from the seed, other than the coding sequence's. */
function methodBuster(input: PlanInput, n: number): string {
  const drawn = [...input.seed].reduce((hash, c) => (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0, 29);
  return `_=${1_700_000_000_000 + drawn + 1 + n}`;
}

/**
 * One pipelined batch per run (RFC 9112 §9.3.2: a server answers pipelined requests in their
 * order, however it works on them): two reads of every GET operation on a given resource, one
 * with the full key and one with a key it refuses (none, invalid, or the restricted key where
 * --forbidden), interleaved so that every operation is followed by another status and another
 * operation: A full, B refused, B full, A refused. Whichever read a server finishes late, an
 * answer in completion order lands on a request that gets another status alone. Four requests.
 */
function pipelinedBatch(operations: readonly Operation[], credentials: readonly Credential[], input: PlanInput, random: Random): VariantCell[] {
  const reads = shuffled(operations.filter((o) => o.method === 'GET'), random).slice(0, 2);
  if (reads.length === 0) return [];
  const refused = (operation: Operation, unknownOnly = false) => {
    const options = credentials.filter((c) => c === 'none' || c === 'invalid' || (!unknownOnly && c === 'restricted' && input.forbidden.has(operation.operationId)));
    return options[pick(random, options.length)]!;
  };
  const cell = (operation: Operation, credential: Credential): VariantCell => ({ kind: 'pipelined', operationId: operation.operationId, credential, resource: 'given' });
  const [a, b = a] = reads as [Operation, Operation | undefined];
  // The refused read in the middle carries no valid key (none or an unknown one): where a server is slow on keys it does not know (a lookup
  // that misses its cache), that answer is the one finished late with answers after it. The last may be any refused key, the restricted one too.
  return [cell(a, 'full'), cell(b, refused(b, true)), cell(b, 'full'), cell(a, refused(a))];
}

/**
 * An answer that has no content by HTTP's framing (HEAD, a 304: RFC 9112 §6.3) shows bytes sent
 * beyond it only to the request after it on the connection (conformance/send/send-chain.ts); so
 * does a request whose content a server leaves unread (it becomes the start of the next request).
 */
function mayBeBodiless(cell: VariantCell, input: PlanInput): boolean {
  const spec = VARIANT_KIND.get(cell.kind)!;
  return spec.method?.('GET') === 'HEAD' || spec.content !== undefined || (spec.check === 'conditional-after-auth' && input.contract.operation(cell.operationId).method === 'GET');
}

/**
 * A request framed as having no content (kind bodyless-framing) ends its chain: it is judged by its own answer. What a server that
 * reads Content-Length alone leaves of it on the connection (the last chunk, read as the next request) is not judged: the
 * hand-written servers of red team rounds six to ten, labelled conformant, read requests so.
 */
const endsChain = (cell: VariantCell) => VARIANT_KIND.get(cell.kind)!.wire?.framings !== undefined;

/** Chains of CHAIN_LENGTH, each one longer while its last request may be answered without content: a request always follows it. */
function chainNumbers(order: readonly VariantCell[], input: PlanInput): number[] {
  let chain = 0;
  let length = 0;
  return order.map((cell, i) => {
    if ((length >= CHAIN_LENGTH && !mayBeBodiless(order[i - 1]!, input)) || (i > 0 && endsChain(order[i - 1]!))) {
      chain++;
      length = 0;
    }
    length++;
    return chain;
  });
}

/** The run's last variant is one whose answer has content: those that may have none go just before it. */
function lastLeavesNothing(cells: VariantCell[], input: PlanInput): VariantCell[] {
  let last = cells.length - 1;
  while (last >= 0 && mayBeBodiless(cells[last]!, input)) last--;
  if (last < 0 || last === cells.length - 1) return cells;
  return [...cells.slice(0, last), ...cells.slice(last + 1), cells[last]!];
}

/**
 * What a HEAD leaves on a connection shows on the next answer that has a body, and what a request
 * with content leaves there on the next request: after each HEAD and each request with content,
 * the next cell that is a read with the full key on a given resource is moved up to follow it.
 */
function afterEachHead(cells: VariantCell[], input: PlanInput): VariantCell[] {
  const out = [...cells];
  const leaves = (c: VariantCell) => c.kind === 'head' || VARIANT_KIND.get(c.kind)!.content !== undefined;
  // A GET with the full key on a given resource, sent as a GET (a kind that sends another method, e.g. POST with an override header, is none).
  const bodied = (c: VariantCell) => {
    const spec = VARIANT_KIND.get(c.kind)!;
    // In the ordinary form of the message too: another form (absolute, spelled, HTTP/1.0, no Host) is judged apart, and its read is another request.
    // Nor a Host spelled otherwise (`localhost` may be refused 400 as such), nor one whose answer only a warning judges and that ends
    // the connection (Connection: close): either would hide what a request left on the connection.
    return !leaves(c) && c.kind !== 'options' && c.kind !== 'preflight' && !spec.wire && !spec.hostSpellings && spec.check !== 'connection-semantics-kept' && c.credential === 'full' && c.resource === 'given' && input.contract.operation(c.operationId).method === 'GET' && (spec.method?.('GET') ?? 'GET') === 'GET';
  };
  // Free to move: not already the read that follows a HEAD or a request with content.
  const free = (k: number) => bodied(out[k]!) && (k === 0 || !leaves(out[k - 1]!));
  for (let i = 0; i < out.length; i++) {
    if (!leaves(out[i]!) || (i + 1 < out.length && bodied(out[i + 1]!))) continue;
    // The next free read after it, else one before it (the order is a shuffle: any read will do).
    let j = out.findIndex((_, k) => k > i + 1 && free(k));
    if (j < 0) j = out.findIndex((_, k) => k < i && free(k));
    if (j < 0) continue;
    const [moved] = out.splice(j, 1);
    const at = j < i ? i : i + 1;
    out.splice(at, 0, moved!);
    if (j < i) i--;
  }
  return out;
}

function variantRequest(cell: VariantCell, input: PlanInput, chain: number, random: Random): PlannedRequest | undefined {
  const operation = input.contract.operation(cell.operationId);
  const spec = VARIANT_KIND.get(cell.kind)!;
  const ids = idsFor(operation, cell, input);
  const path = `${pathOf(operation, ids)}${spec.query ? `?${spec.query(operation, ids, input)}` : ''}`;
  const method = spec.method?.(operation.method) ?? operation.method;
  const namedPath = spec.namesPath ? otherOperationPath(operation, cell.credential, input) : undefined;
  return {
    operationId: operation.operationId,
    step: 'variant',
    label: spec.serverWide ? `${spec.describe}, ${credentialName(cell.credential)}` : `${operation.operationId} ${credentialName(cell.credential)}, ${spec.describe}${cell.alternative === undefined ? '' : `: ${turnLabel(spec, cell.alternative)}`}${namedPath === undefined ? '' : `: ${namedPath}`}`,
    credential: cell.credential,
    method,
    path,
    // The base request's allowed answers are the model's to say; a hostile-style empty list keeps the step out of the scenario checks.
    expects: [],
    // The auth field name's spelling is drawn here, from the seed, so that the report and its curl line say which one was sent.
    variant: { kind: cell.kind, chain, resource: cell.resource, ...(cell.alternative !== undefined ? { alternative: cell.alternative } : {}), ...(spec.authName && operation.authHeaders[0] ? { authName: spec.authName(operation.authHeaders[0], random) } : {}), ...(namedPath !== undefined ? { namedPath } : {}) },
  };
}

/**
 * The path a path-naming header gives (kind path-headers): another read on a given resource, for
 * the restricted key one whose permission differs from this operation's (--forbidden), so that a
 * server that routes by the header, or takes the permission from it, answers what the key lacks.
 */
function otherOperationPath(operation: Operation, credential: Credential, input: PlanInput): string | undefined {
  const reads = input.contract.operations.filter((o) => o.operationId !== operation.operationId && o.method === 'GET' && o.authHeaders.length > 0);
  const lacks = (o: Operation) => input.forbidden.has(o.operationId);
  const other = (credential === 'restricted' ? reads.find((o) => lacks(o) !== lacks(operation)) : undefined) ?? reads[0];
  if (!other) return undefined;
  return pathOf(other, other.operationId === GET_PROJECT_ENVIRONMENTS ? [encodeId(input.project)] : missingValues(other, input));
}

/** The ids a variant is sent with (see invarianceScenario on resources). */
function idsFor(operation: Operation, cell: VariantCell, input: PlanInput): string[] {
  if (operation.pathParams.length === 0) return [];
  // fullOnLater: the full key on a token the run deletes later (its own delete), so that an effect shows in that step too.
  if (operation.operationId === DELETE_SERVICE_ACCOUNT_TOKEN && cell.credential === 'full' && VARIANT_KIND.get(cell.kind)!.fullOnLater) {
    const { primary } = allocateTokens(input.tokens);
    return input.allowDelete && primary ? [encodeId(primary.account), encodeId(primary.token)] : missingValues(operation, input);
  }
  if (operation.operationId === GET_PROJECT_ENVIRONMENTS) return cell.resource === 'missing' ? missingValues(operation, input) : [encodeId(input.project)];
  if (operation.operationId !== DELETE_SERVICE_ACCOUNT_TOKEN) return missingValues(operation, input);
  // A missing token: the unknown token of an account the run was given (as the full key's deletes use), whoever asks.
  if (cell.resource === 'missing') return derivedDeleteIds(operation, 'full', input);
  return derivedDeleteIds(operation, cell.credential, input);
}

/**
 * The ids of a delete derived from the plan's own (a variant, the overlap batch): a key that must
 * be refused on a given token (so that getting past auth shows, as a success now and a 404 for
 * the deletion step later), the full key on the unknown token of the primary account, as the
 * unknown-token step sends it (so that the two compare), never on a token the run deletes.
 */
export function derivedDeleteIds(operation: Operation, credential: Credential, input: PlanInput): string[] {
  if (!input.allowDelete) return missingValues(operation, input);
  const { primary, restrictedTargets } = allocateTokens(input.tokens);
  const refused = credential === 'none' || credential === 'invalid' || (credential === 'restricted' && input.forbidden.has(operation.operationId));
  const target = credential === 'restricted' ? restrictedTargets[0] : primary;
  if (refused && target) return [encodeId(target.account), encodeId(target.token)];
  return primary ? [encodeId(primary.account), encodeId(input.missingToken)] : missingValues(operation, input);
}


/** A seeded Fisher-Yates shuffle. */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = pick(random, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
