import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CHECKS } from '../checks/registry.ts';

// fastify's rule: the documented list and the code's list cannot drift apart. The section lives in
// conformance/README.section.md until it is merged into README.md.
const readme = ['../README.section.md', '../../README.md']
  .map((path) => new URL(path, import.meta.url))
  .filter((url) => existsSync(url))
  .map((url) => readFileSync(url, 'utf8'))
  .find((text) => text.includes('`response-received`'));

it('documents every check with its severity, and no check that does not exist', () => {
  const rows = [...(readme ?? '').matchAll(/^\| `([a-z-]+)` \| (error|warning) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
  expect(rows).toEqual(CHECKS.map((c) => `${c.id} ${c.severity}`));
});
