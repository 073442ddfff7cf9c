import { SUBSTRING_MIN } from '../../report/secret-redactor.ts';
import { documented, failed, parsedBodyOf, passed, type Judgement, type Rule, type RuleContext } from '../rule.ts';
import { encodedReadings } from '../encoded-readings.ts';
import { modelCredentialOf } from '../judge-with-model.ts';
import type { Exchange } from '../../types.ts';
import { unlistedMembers } from './undocumented-properties.ts';
import { escapePointerToken } from '../../../src/contract/json-pointer.ts';


type Answered = Exchange & { response: NonNullable<Exchange['response']> };

/**
 * Spec decision secrets-follow-permissions: a `format: password` value an operation answers in a member its schema lists (the
 * OIDC `secret` of getOidcSettings, read with a key that may call it) is that operation's. No answer to a credential that may not
 * call the operation (the restricted key where the run says it gets 403, no key, an invalid key or a near-miss of one) carries it,
 * in any operation, status, header or body, under any name, as sent or encoded (encoded-readings.ts): an extra member is allowed,
 * a way around the 403 is not. The full key may get it inside another operation's 2xx (it may read it anyway). The rules share the
 * evidence: headers and error bodies are no-secret-echo's (for every key), a 2xx to a credential that may not call the operation
 * at all is the auth rules' (auth-missing-rejected, auth-invalid-rejected, restricted-key-forbidden); this one judges the 2xx bodies
 * the restricted key may get, where no other rule looks.
 */
export const secretsFollowPermissions: Rule = {
  id: 'secrets-follow-permissions',
  severity: 'error',
  title: 'No secret to a credential that may not read it',
  proves:
    "a `format: password` value an operation answers (the OIDC secret, read with the full key) is in no 2xx body the restricted key gets from an operation it may call, when it may not call that one (403 there), under any name, as sent or encoded (percent, base64, hex, UTF-16); with no-secret-echo (headers, error bodies) and the auth rules (a 2xx to a key that may not call the operation) no answer to a credential that may not read it carries it; the full key may get it as an extra member of another operation's 2xx; a value shorter than 8 characters, or one that is also ordinary data of the run (in a member the spec lists), is not judged",
  level: 'behaviour',
  judgesTraffic: false,
  readsPerInstanceFields: true,
  // Where a normal run judges: the operations the restricted key may call (a set-up problem lists it there as not judged).
  appliesTo: (planned) => 'step' in planned && planned.step === 'restricted-allowed',
  judge: (exchanges, context) => {
    const forbidden = new Set(context.forbidden ?? []);
    const mayCall = (exchange: Exchange, operationId: string) => {
      const credential = modelCredentialOf(exchange);
      return credential === 'full' || (credential === 'restricted' && !forbidden.has(operationId));
    };
    // What it judges: a 2xx the restricted key may get (an operation it may call, in the operation's method or HEAD). A 2xx to a key
    // that may not call the operation, or to no key or an invalid one, is the auth rules' defect already; headers and error bodies
    // are no-secret-echo's, for every key.
    const judged = exchanges.filter(
      (e): e is Answered =>
        e.response !== undefined &&
        e.response.status >= 200 &&
        e.response.status <= 299 &&
        modelCredentialOf(e) === 'restricted' &&
        !forbidden.has(e.operationId) &&
        (e.method === context.contract.operation(e.operationId).method || e.method === 'HEAD'),
    );
    if (judged.length === 0) return [];
    const owned = secretsOwned(context, mayCall);
    // The secrets of the operations the restricted key may not call.
    const barred = new Map([...owned].filter(([, operations]) => [...operations].every((operationId) => forbidden.has(operationId))));
    if (barred.size === 0) return judged.map(passed);
    const shortest = Math.min(...[...barred.keys()].map((s) => s.length));
    const forms = [...barred.keys()].map((value) => [value, [...new Set([value.toLowerCase(), Buffer.from(value, 'utf8').toString('latin1').toLowerCase()])]] as const);
    const read = new Map<string, string | undefined>();
    let data: string[] | undefined;
    const isData = (value: string) => (data ??= ordinaryData(context)).some((d) => d.includes(value));
    const holds = (text: string) => {
      if (!read.has(text)) {
        let found: string | undefined;
        for (const reading of encodedReadings(text, shortest)) {
          const folded = reading.toLowerCase();
          found = forms.find(([, f]) => f.some((form) => folded.includes(form)))?.[0];
          if (found !== undefined) break;
        }
        read.set(text, found);
      }
      const found = read.get(text);
      return found !== undefined && !isData(found) ? found : undefined;
    };
    return judged.map((exchange): Judgement => {
      const secret = secretInBody(exchange, holds);
      if (secret === undefined) return passed(exchange);
      const operations = [...barred.get(secret)!].join(', ');
      return failed({
        exchange,
        message: `${exchange.label}: the body of a ${exchange.response.status} carries the \`format: password\` value ${operations} answers, which the restricted key may not call (403 there): a way around the permission (spec decision secrets-follow-permissions).`,
        expected: `no secret of ${operations} in an answer to the restricted key`,
        got: 'the secret in the body (redacted in this report)',
      });
    });
  },
};

/** The barred secret the body carries: in its JSON strings and member names (any name, a secret one too), or in the raw text. */
function secretInBody(exchange: Answered, holds: (text: string) => string | undefined): string | undefined {
  const { response } = exchange;
  if (response.body === '') return undefined;
  const body = parsedBodyOf(response);
  const texts: string[] = [];
  if (body.ok) walk(body.value, () => false, (value) => texts.push(value), () => {});
  else texts.push(response.body);
  for (const text of texts) {
    const secret = holds(text);
    if (secret !== undefined) return secret;
  }
  return undefined;
}

/**
 * Each `format: password` value the run read in a member the spec lists, in a 2xx a credential that may call the operation got,
 * with the operations that answered it: those operations' secrets.
 */
function secretsOwned(context: RuleContext, mayCall: (exchange: Exchange, operationId: string) => boolean): Map<string, Set<string>> {
  const owned = new Map<string, Set<string>>();
  const names = [...context.contract.secretProperties];
  if (names.length === 0) return owned;
  for (const exchange of context.all) {
    const response = exchange.response;
    if (!response || response.status < 200 || response.status > 299 || !mayCall(exchange, exchange.operationId)) continue;
    if (!names.some((name) => response.body.includes(`"${name}"`))) continue;
    const declared = declaredMembers(context, exchange as Answered);
    if (!declared) continue;
    walk(declared.value, declared.unlisted, () => {}, (value) => {
      if ([...value].length < SUBSTRING_MIN) return;
      let operations = owned.get(value);
      if (!operations) owned.set(value, (operations = new Set()));
      operations.add(exchange.operationId);
    }, context.contract.secretProperties);
  }
  return owned;
}

/** The strings of the run's 2xx bodies in members the spec lists, secret members apart: data that may coincide with a secret. */
function ordinaryData(context: RuleContext): string[] {
  const data: string[] = [];
  for (const exchange of context.all) {
    const response = exchange.response;
    if (!response || response.status < 200 || response.status > 299) continue;
    const declared = declaredMembers(context, exchange as Answered);
    if (declared) walk(declared.value, declared.unlisted, (value) => data.push(value), () => {}, context.contract.secretProperties);
  }
  return data;
}

/** A documented JSON body, with the JSON pointers of the members its schema does not list. */
function declaredMembers(context: RuleContext, exchange: Answered): { value: unknown; unlisted: (pointer: string) => boolean } | undefined {
  const spec = documented(context, exchange);
  const body = parsedBodyOf(exchange.response);
  if (!spec?.response.schema || !body.ok) return undefined;
  const pointers = new Set(unlistedMembers(spec.response.validateStrict(body.value)).map((member) => member.pointer));
  return { value: body.value, unlisted: (pointer) => pointers.has(pointer) };
}


/**
 * Every string (values and member names) of a JSON value, members at `skip` pointers left out; values of `secretProperties`
 * members go to onSecret instead. Iterative: depth cannot exhaust the stack.
 */
function walk(root: unknown, skip: (pointer: string) => boolean, onData: (s: string) => void, onSecret: (s: string) => void, secretProperties: ReadonlySet<string> = new Set()): void {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (typeof node === 'string') onData(node);
    if (node === null || typeof node !== 'object') continue;
    for (const [name, value] of Object.entries(node)) {
      const at = `${pointer}/${escapePointerToken(name)}`;
      if (skip(at)) continue;
      onData(name);
      if (secretProperties.has(name) && typeof value === 'string') onSecret(value);
      else stack.push([value, at]);
    }
  }
}
