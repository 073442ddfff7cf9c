import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonExcerpt } from './redact.ts';
import { SUBSTRING_MIN, TOKEN_MIN, createRedactor } from './secret-redactor.ts';
import { B64, ENCODINGS, forbiddenForms } from '../test/secret-encodings.ts';

const KEY = 'mock-admin-key';
const redact = createRedactor([KEY]);
const escapedU = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const percent = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');

describe('createRedactor', () => {
  it.each([
    ['plain', `key ${KEY} refused`],
    ['\\u-escaped', `key ${escapedU(KEY)} refused`],
    ['partly \\u-escaped', `key mock-\\u0061dmin-key refused`],
    ['percent-encoded', `key=${percent(KEY)}&x=1`],
    ['percent-encoded in lower case', `key=${percent(KEY).toLowerCase()}`],
    ['base64', `Basic ${Buffer.from(KEY).toString('base64')}`],
    ['base64 of a longer text', `token ${Buffer.from(`user:${KEY}`).toString('base64')}`],
    ['URL-safe base64', `t=${Buffer.from(`??${KEY}`).toString('base64url')}`],
    ['base64 of the percent-encoded key', Buffer.from(percent(KEY)).toString('base64')],
  ])('removes a %s echo', (_, text) => {
    const out = redact(text);
    expect(out).toContain('<redacted>');
    expect(out).not.toContain(KEY);
    for (const form of [escapedU(KEY), percent(KEY), percent(KEY).toLowerCase(), Buffer.from(KEY).toString('base64').slice(0, 12)]) expect(out).not.toContain(form);
  });

  it('leaves text without a secret alone, and redacting twice changes nothing', () => {
    expect(redact('{"name":"NotFoundError","message":"no such project"}')).toBe('{"name":"NotFoundError","message":"no such project"}');
    const once = redact(`{"a":"${KEY}","b":"x ${KEY.toUpperCase()} y"}`);
    expect(once).toBe('{"a":"<redacted>","b":"x <redacted> y"}');
    expect(redact(once)).toBe(once);
  });

  it('never eats the marker, even for a secret that the marker spells', () => {
    const marker = createRedactor(['redacted', 'e']);
    expect(marker('<redacted> "e" <redacted>')).toBe('<redacted> "<redacted>" <redacted>');
  });
});

describe('createRedactor: the principle (issue 13)', () => {
  const reversed = (text: string) => [...text].reverse().join('');
  it.each([
    ['a run of 8 characters of it in the middle of a word', 'xxadmin-kexx', 'xx<redacted>xx'],
    ['7 characters of it: too short to mean anything', 'xadmin-kx', 'xadmin-kx'],
    ['reversed', `(${reversed(KEY)})`, '(<redacted>)'],
    ['HTML decimal entities', `<p>${[...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('')}</p>`, '<p><redacted></p>'],
    ['hex with colons', `id ${Buffer.from(KEY).toString('hex').match(/../g)!.join(':')}.`, 'id <redacted>.'],
    ['fullwidth letters', `key ${[...KEY].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('')}`, 'key <redacted>'],
    ['interleaved with zero-width spaces', `key ${[...KEY].join('\u200b')}!`, 'key <redacted>!'],
    ['split across two values of an array', `["${KEY.slice(0, 5)}","${KEY.slice(5)}"]`, '["<redacted>"]'],
    ['split across two properties', `{"a":"${KEY.slice(0, 7)}","b":"${KEY.slice(7)}"}`, '{"a":"<redacted>","b":"<redacted>"}'],
    ['split across two elements', `<b>${KEY.slice(0, 7)}</b><i>${KEY.slice(7)}</i>`, '<b><redacted></b><i><redacted></i>'],
    ['base64 wrapped at a line break', `${Buffer.from(`${KEY}${KEY}`).toString('base64').replace(/(.{12})/, '$1\n')}`, '<redacted>'],
  ])('redacts a long key as %s', (_, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('holds for any secret of 8 to 24 printable characters, in any encoding the issue names, anywhere in a text (seeded)', () => {
    const char = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/=:!@#$%&;'.split(''));
    const secret = fc.array(char, { minLength: 8, maxLength: 24 }).map((chars) => chars.join(''));
    const around = fc.array(fc.constantFrom('the', 'key', 'refused:', 'Basic', '{"a":"', '"}', '<p>', 'x=', '%', '&', '\\', '\n', 'dGhl'), { maxLength: 6 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(secret, fc.constantFrom(...Object.keys(ENCODINGS)), around, around, (key, encoding, before, after) => {
        const out = createRedactor([key])(`${before}${ENCODINGS[encoding]!(key)}${after}`);
        for (const form of forbiddenForms(key, encoding)) {
          const left = B64.has(encoding) ? out.includes(form) : out.toLowerCase().includes(form.toLowerCase());
          if (left) throw new Error(`${encoding} of ${JSON.stringify(key)}: ${JSON.stringify(form)} is left in ${JSON.stringify(out)}`);
        }
      }),
      { numRuns: 400, seed: 13 },
    );
  });

  it(`redacts a whole secret of ${TOKEN_MIN} to ${SUBSTRING_MIN - 1} characters wherever it shows as a word of its own, in any encoding, never inside a longer word`, () => {
    const short = createRedactor(['hunter2']);
    for (const [text, out] of [
      ['no project; the OIDC secret is hunter2', 'no project; the OIDC secret is <redacted>'],
      ['{"message":"secret=HUNTER2."}', '{"message":"secret=<redacted>."}'],
      ['cb?s=%68unter%32&x=1', 'cb?s=<redacted>&x=1'],
      ['reversed: 2retnuh', 'reversed: <redacted>'],
      ['hunter22 and xhunter2 are other words', 'hunter22 and xhunter2 are other words'],
      ['hunter', 'hunter'],
    ]) expect(short(text!), text).toBe(out);
  });

  it(`redacts a secret shorter than ${SUBSTRING_MIN} only where a whole value is it, in any encoding, never inside words`, () => {
    const x = createRedactor(['x']);
    for (const value of ['x', 'X', ' x ', '%78', '&#120;', '&#x78;', '\\u0078', 'eA==']) expect(x(value), value).toBe('<redacted>');
    expect(x('{"message":"x","expected":"xylophone","x":1}')).toBe('{"message":"<redacted>","expected":"xylophone","<redacted>":1}');
    for (const text of ['text/html', 'expected x to be y', 'xylophone', '{"a":"xy"}', 'max-age=0']) expect(x(text)).toBe(text);
  });
});

describe('jsonExcerpt', () => {
  const options = { secretProperties: new Set(['secret']), redact };

  it('writes a body nested 100,000 deep without exhausting the stack, cut at the limit', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const out = jsonExcerpt(deep, { ...options, limit: 50 }, 200_002);
    expect(out).toBe(`${'['.repeat(50)}… (200002 characters)`);
  });

  it('stops early on a huge array and redacts names, strings and secret properties', () => {
    const out = jsonExcerpt({ [KEY]: 1, list: Array.from({ length: 1_000_000 }, (_, i) => i), secret: 'x' }, { ...options, limit: 40 });
    expect(out).toBe('{"<redacted>":1,"list":[0,1,2,3,4,5,6,7,… (cut)');
    expect(jsonExcerpt({ a: { secret: { nested: true } }, b: `x ${KEY}` }, options)).toBe('{"a":{"secret":"<redacted>"},"b":"x <redacted>"}');
  });
});

describe('createRedactor: UTF-16 and keys that name a project and an environment (issue 19)', () => {
  it.each([
    ['UTF-16LE hex', Buffer.from(KEY, 'utf16le').toString('hex')],
    ['UTF-16BE hex', Buffer.from(KEY, 'utf16le').swap16().toString('hex')],
    ['UTF-16LE percent-encoded', [...Buffer.from(KEY, 'utf16le')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')],
    ['UTF-16LE base64', Buffer.from(KEY, 'utf16le').toString('base64')],
  ])('redacts a key echoed as %s, NUL halves included', (_, echo) => {
    expect(redact(`echo ${echo} end`)).toBe('echo <redacted> end');
  });

  it('redacts the secret part of default:development.<secret>, never the project or the environment it names', () => {
    const unleash = createRedactor(['default:development.be7c3f1a9d2e']);
    expect(unleash('{"project":"default","environment":"development","title":"Everyone in development"}')).toBe('{"project":"default","environment":"development","title":"Everyone in development"}');
    expect(unleash('key default:development.be7c3f1a9d2e refused')).toBe('key default:devel<redacted> refused');
    expect(unleash('tail ment.be7c')).toBe('tail <redacted>');
  });
});
