import { describe, expect, it } from 'vitest';
import { KEY_VARIANTS, idVariants, keyVariants } from './near-miss.ts';

describe('keyVariants', () => {
  it('sends only variants that differ from every key given, and from one another', () => {
    expect(keyVariants('mock-admin-key', ['mock-viewer-key'])).toEqual(['appended', 'truncated', 'upper-case']);
    expect(keyVariants('k', ['v'])).toEqual(['appended', 'upper-case']);
    expect(keyVariants('K1', ['k1'])).toEqual(['appended', 'truncated']);
  });

  it('writes each as the bash expansion that makes it, so a curl line reproduces it without the key', () => {
    expect(Object.values(KEY_VARIANTS).map((v) => v.expansion('FLAG_ADMIN_API_KEY'))).toEqual(['${FLAG_ADMIN_API_KEY}x', '${FLAG_ADMIN_API_KEY%?}', '${FLAG_ADMIN_API_KEY^^}', '${FLAG_ADMIN_API_KEY,,}']);
  });
});

describe('idVariants', () => {
  it('gives a numeric id to be deleted only forms a sloppy parser resolves to it, never a look-alike that can be another real id', () => {
    expect(idVariants('12', { lookalikes: false }).map((v) => v.value)).toEqual(['012', '+12', '12.0', '12 ']);
    expect(idVariants('ci-token', { lookalikes: false }).map((v) => v.value)).toEqual(['ci-token ']);
  });

  it('gives a project to be read its look-alikes too', () => {
    expect(idVariants('default', { lookalikes: true }).map((v) => v.value)).toEqual(['default ', 'DEFAULT', 'defaul']);
  });
});
