import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CHECKS } from '../checks/registry.ts';

// fastify's rule: the documented list and the code's list cannot drift apart.
const readme = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');

it('documents every check with its severity in docs/conformance.md, and no check that does not exist', () => {
  const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| (error|warning) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
  expect(rows).toEqual(CHECKS.map((c) => `${c.id} ${c.severity}`));
});
