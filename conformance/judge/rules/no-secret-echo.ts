import { SUBSTRING_MIN } from '../../report/secret-redactor.ts';
import { failed, ordinaryResponses, parsedBodyOf, passed, type Rule, type RuleContext } from '../rule.ts';
import type { Exchange } from '../../types.ts';
import { encodedReadings } from '../encoded-readings.ts';

/**
 * A secret belongs in one place: the keys in the request's header, a `format: password` value in
 * its own property of a 2xx body. An error message that quotes the caller's key or the OIDC
 * secret, or a header that carries one, puts it into every client log and error tracker.
 */
export const noSecretEcho: Rule = {
  id: 'no-secret-echo',
  severity: 'error',
  title: 'No secret outside its own field',
  proves:
    'no error body and no header carries a key the run sends (full or restricted) or a `format: password` value it has seen (the OIDC secret), as sent, as a JSON string value, or encoded (percent, base64, hex, UTF-16); a secret shorter than 8 characters, or one that is also ordinary data of the run\'s successful answers (a key `production`), cannot be told from data and is not judged',
  level: 'response',
  // It reads every string of an error body, the per-instance `message` among them.
  readsPerInstanceFields: true,
  judge: (exchanges, context) => {
    // Answers repeat their header values and error texts (Content-Type, the same 401 message): each distinct text is read once,
    // in this call and in the calls after it with the same secrets (a proxy judges one exchange per call).
    const { secrets, read } = judgeableSecrets(context);
    return ordinaryResponses(exchanges).flatMap((exchange) => {
      // The suite itself put the key into the URL or a cookie (near-miss-key probes): an answer quoting the request back is not judged on it.
      if (keyOutsideHeader(exchange)) return [];
      const echo = secrets.length === 0 ? undefined : echoIn(exchange, secrets, read);
      if (!echo) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: the ${echo.where} of a ${exchange.response.status} carries ${echo.secret.name}, which belongs only ${echo.secret.home}.`,
          expected: `no secret in the ${echo.where}`,
          got: `${echo.secret.name} in the ${echo.where} (redacted in this report)`,
        }),
      ];
    });
  },
};

/** Whether the request carried its key elsewhere than the header (a near-miss-key probe's query parameter or cookie). */
function keyOutsideHeader(exchange: Exchange): boolean {
  const placement = exchange.keyVariant?.placement;
  return placement !== undefined && placement.in !== 'header';
}

interface Secret {
  value: string;
  name: string;
  home: string;
  /** The value lower-cased, as characters and as UTF-8 bytes read one per character (how a decoding reads it). */
  forms: string[];
}

/** The secrets of the run that can be told from data: long enough, and in no successful answer outside a secret property. */
function judgeableSecrets(context: Pick<RuleContext, 'secrets' | 'all' | 'contract'>): JudgeableSecrets {
  const given = context.secrets;
  if (!given) return NO_SECRETS;
  const data: string[] = [];
  const seen = new Set<string>(given.values ?? []);
  for (const exchange of context.all) {
    const response = exchange.response;
    if (!response || response.status < 200 || response.status > 299) continue;
    const body = parsedBodyOf(response);
    if (body.ok) walkStrings(body.value, context.contract.secretProperties, (value) => data.push(value), (value) => seen.add(value));
  }
  // Without data among the exchanges (an error answer, judged alone by a proxy), the list depends on the secrets given alone:
  // named by each one's kind, name and value, length-prefixed (any character may be in a value).
  let list: string | undefined;
  if (data.length === 0) {
    list = '';
    for (const key of given.keys) list += `k${key.name.length}:${key.name}${key.value.length}:${key.value}`;
    for (const value of seen) list += `v${value.length}:${value}`;
    const known = remembered.get(list);
    if (known) return known;
  }
  const all: Omit<Secret, 'forms'>[] = [
    ...given.keys.map((key) => ({ ...key, home: 'in the Authorization header of a request' })),
    ...[...seen].map((value) => ({ value, name: 'a secret value (a `format: password` property, e.g. the OIDC secret)', home: 'in its own property of a successful answer' })),
  ];
  const secrets = all.filter((s) => [...s.value].length >= SUBSTRING_MIN && !data.some((d) => d.includes(s.value))).map((s) => ({ ...s, forms: [...new Set([s.value.toLowerCase(), Buffer.from(s.value, 'utf8').toString('latin1').toLowerCase()])] }));
  const judgeable = { secrets, read: readingsFor(secrets) };
  if (list !== undefined) remember(remembered, list, judgeable);
  return judgeable;
}

/**
 * Where in the answer a secret shows: a header, or an error body (raw, or once its JSON strings
 * are decoded), as written or encoded (percent, base64, hex, UTF-16: encoded-readings.ts).
 */
function echoIn(exchange: Exchange & { response: NonNullable<Exchange['response']> }, secrets: readonly Secret[], read: Map<string, number>): { where: string; secret: Secret } | undefined {
  const { response } = exchange;
  const shortest = Math.min(...secrets.map((s) => s.value.length));
  const holds = (text: string) => secretIn(text, secrets, read, shortest);
  for (const [name, value] of Object.entries(response.headers)) {
    const secret = holds(value);
    if (secret) return { where: `header ${name}`, secret };
  }
  if (response.status >= 200 && response.status <= 299) return undefined;
  const body = parsedBodyOf(response);
  const texts: string[] = [];
  // A JSON body's strings one by one (a value decoded whole), else the raw text.
  if (body.ok) walkStrings(body.value, new Set(), (value) => texts.push(value), () => {});
  else texts.push(response.body);
  for (const text of texts) {
    const secret = holds(text);
    if (secret) return { where: 'body', secret };
  }
  return undefined;
}

/** The secret `text` holds, as written or encoded (encoded-readings.ts), remembered per text in `read`. */
function secretIn(text: string, secrets: readonly Secret[], read: Map<string, number>, shortest: number): Secret | undefined {
  let found = read.get(text);
  if (found === undefined) {
    found = -1;
    for (const reading of encodedReadings(text, shortest)) {
      const folded = reading.toLowerCase();
      found = secrets.findIndex((s) => s.forms.some((form) => folded.includes(form)));
      if (found >= 0) break;
    }
    if (text.length <= MAX_REMEMBERED_TEXT) {
      if (read.size >= MAX_REMEMBERED_TEXTS) read.clear();
      read.set(text, found);
    }
  }
  return found < 0 ? undefined : secrets[found];
}

/**
 * Whether any of `texts`, strings of an error body, carries a secret this rule would find in it,
 * with the secrets it would judge an error answer by (`context.secrets`; an error answer's own
 * strings are no successful answer's data). For a proxy that read an answer's new per-instance
 * values from its bytes (passive-judge.ts): the rest of the answer was read before, against the same secrets.
 */
export function echoesSecret(texts: readonly string[], context: Pick<RuleContext, 'secrets' | 'contract'>): boolean {
  const { secrets, read } = judgeableSecrets({ ...context, all: [] });
  if (secrets.length === 0) return false;
  const shortest = Math.min(...secrets.map((s) => s.value.length));
  return texts.some((text) => secretIn(text, secrets, read, shortest) !== undefined);
}

/**
 * What each text read holds (the index of the first secret found in it, -1 for none), per list of
 * secrets: a pure function of the text and the secrets, so a text read before with the same
 * secrets is not read again. A proxy judges one exchange per call, and its answers repeat their
 * header values and error strings (Content-Type, the 401's name and message) around a fresh error
 * id: reading every one afresh was a third of judging a 401 once the OIDC secret was known (the
 * encoded readings' scans, `--cpu-prof`, 2026-11-28). Bounded: texts up to MAX_REMEMBERED_TEXT
 * characters, MAX_REMEMBERED_TEXTS per list (then it starts afresh), the last MAX_SECRET_LISTS lists:
 * at most some 2 million characters held, whatever the traffic (the proxy's RSS bound, issue 19).
 */
const MAX_REMEMBERED_TEXT = 256;
const MAX_REMEMBERED_TEXTS = 1024;
const MAX_SECRET_LISTS = 8;
/** Per list of judgeable secrets (each one's value, what it is called and where it belongs, in order): what its texts hold. */
const readings = new Map<string, Map<string, number>>();
/** Per list of secrets given, when no successful answer is judged with them: the judgeable ones and their readings. */
const remembered = new Map<string, JudgeableSecrets>();

interface JudgeableSecrets {
  secrets: Secret[];
  read: Map<string, number>;
}
const NO_SECRETS: JudgeableSecrets = { secrets: [], read: new Map() };

function remember<V>(map: Map<string, V>, list: string, value: V): void {
  if (map.size >= MAX_SECRET_LISTS) map.delete(map.keys().next().value!);
  map.set(list, value);
}

function readingsFor(secrets: readonly Secret[]): Map<string, number> {
  const list = JSON.stringify(secrets.map((s) => [s.value, s.name, s.home]));
  let read = readings.get(list);
  if (!read) remember(readings, list, (read = new Map()));
  return read;
}

/** Every string value (and property name) of a JSON value, those of secret properties apart; iterative, so depth cannot exhaust the stack. */
function walkStrings(root: unknown, secretProperties: ReadonlySet<string>, onData: (s: string) => void, onSecret: (s: string) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') onData(node);
    if (node === null || typeof node !== 'object') continue;
    for (const [name, value] of Object.entries(node)) {
      onData(name);
      if (secretProperties.has(name) && typeof value === 'string') onSecret(value);
      else stack.push(value);
    }
  }
}
