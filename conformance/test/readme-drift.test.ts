import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.ts';
import { serveHandler } from '../../src/mock/index.ts';
import { RULES } from '../judge/registry.ts';
import { BROKEN_TARGETS } from './broken-targets.ts';
import { HOSTILE_TARGETS } from './hostile-targets.ts';
import { INVARIANCE_BROKEN_TARGETS, INVARIANCE_CONFORMANT_VARIANTS } from './invariance-targets.ts';
import { ENCODINGS } from './secret-encodings.ts';
import { renderRulesTable, rulesTableOf } from '../report/rules-table.ts';
import { runCheck } from './run-check.ts';
import { freshMock } from './serve-target.ts';

// fastify's rule: the documented list and the code's list cannot drift apart.
const docs = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');

it('documents every rule of the registry in docs/conformance.md as the rule states it, and no rule that does not exist (npm run gen:rules)', () => {
  const rows = [...docs.matchAll(/^\| `([a-z-]+)` \| (error|warning) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
  expect(rows).toEqual(RULES.map((c) => `${c.id} ${c.severity}`));
  expect(rulesTableOf(docs)?.text).toBe(renderRulesTable(RULES));
});

it('states the number of requests that the documented command line sends to a fresh mock', async () => {
  // The first `flag-admin check` example, as written, pointed at a fresh mock instead of :4010.
  // A checkout user copies it: through npx, which finds the checkout's bin (issue 18).
  const example = /```sh\n(?:export [^\n]*\n)*npx (flag-admin check [^`]*?)\n```/.exec(docs)![1]!;
  const args = example.replace(/\\\n/g, ' ').split(/\s+/).slice(2).filter(Boolean);
  const at = (flag: string) => args.indexOf(flag);
  args.splice(at('--junit'), 2);
  args.splice(at('--json'), 2);
  args[at('--base-url') + 1] = 'TARGET';
  const stated = Number(/(\d+) requests in about/.exec(docs)![1]);
  const mock = freshMock(await loadContract({ validate: false }));
  const server = await serveHandler((request) => mock.handle(request), { port: 0 });
  try {
    args[at('--base-url') + 1] = server.url;
    const run = await runCheck(args);
    expect(run.code).toBe(0);
    expect(run.report!.summary.requests, 'docs/conformance.md: the request count of the documented run').toBe(stated);
  } finally {
    await server.close();
  }
});

it('writes every flag-admin command line of the README and docs/*.md as a checkout user runs it: through npx', () => {
  // A checkout has no flag-admin on PATH; npx finds the checkout's bin (issue 18). A command starts a line or follows | ; &&.
  const pages = ['README.md', ...readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const bare = pages.flatMap((page) => {
    const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
    return [...text.matchAll(/```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)].flatMap(([, block]) => block!.split('\n').filter((line) => /(^|[|;&]\s*)flag-admin /.test(line.trim())).map((line) => `${page}: ${line.trim()}`));
  });
  expect(bare).toEqual([]);
});

it('writes every TypeScript file the README and docs/*.md run as a checkout user runs it: `npx node`, the pinned Node 24', () => {
  // The system Node may be older than the one that runs .ts (20 refuses the extension); an inline `node
  // scripts/x.ts` wrapped over two lines is a command too (docs walk, issue 18).
  const pages = ['README.md', ...readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const bare = pages.flatMap((page) => {
    const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
    return [...text.matchAll(/(^|[^\w-])node\s+(?:--[\w-]+\s+)*[\w./-]+\.ts\b/g)].filter((m) => !/npx\s*$/.test(text.slice(0, m.index! + m[1]!.length))).map((m) => `${page}: ${m[0].trim().replace(/\s+/g, ' ')}`);
  });
  expect(bare).toEqual([]);
});

it('states the number of targets and encodings the tests really run (How the suite is proven right)', () => {
  // Each count is what the test file iterates: broken-targets.test.ts, invariance-targets.test.ts, hostile.test.ts, redaction.test.ts.
  const stated = (pattern: RegExp) => Number(pattern.exec(docs)?.[1]);
  expect({
    broken: stated(/against (\d+) deliberately broken targets/),
    invariance: stated(/against (\d+) servers that break the contract only where the spec names nothing/),
    plausible: stated(/and (\d+) plausible ones a too-strict suite would accuse/),
    hostile: stated(/against (\d+) hostile targets/),
    encodings: stated(/echoes three secrets in (\d+) encodings/),
  }).toEqual({
    broken: BROKEN_TARGETS.length,
    invariance: INVARIANCE_BROKEN_TARGETS.length,
    plausible: INVARIANCE_CONFORMANT_VARIANTS.length,
    hostile: HOSTILE_TARGETS.length,
    encodings: Object.keys(ENCODINGS).length,
  });
});
