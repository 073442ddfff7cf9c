import { describe, expect, it } from 'vitest';
import { jsonExcerpt } from './redact.ts';
import { createRedactor } from './secret-redactor.ts';

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

  it('leaves text without a secret alone, and redacting twice changes nothing, even for a key inside the marker', () => {
    expect(redact('{"name":"NotFoundError","message":"no such project"}')).toBe('{"name":"NotFoundError","message":"no such project"}');
    const e = createRedactor(['e']);
    const once = e('the key e');
    expect(once).toBe('th<redacted> k<redacted>y <redacted>');
    expect(e(once)).toBe(once);
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
