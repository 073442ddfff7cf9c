// How far `flag-admin spec diff` agrees with oasdiff's own test corpus (github.com/oasdiff/oasdiff:
// the document pairs under data/ and the expectations its checker tests state), as an
// independent reference for issue 20. Nothing of oasdiff's is kept here: the corpus is read from
// the path given, a checkout (or `git archive HEAD data checker` of one).
//
// A case is one ordered pair of documents a checker test diffs without editing them in Go, with
// an expectation: breaking when the test expects a change oasdiff rates ERR (its level for
// "breaking"), not breaking when it expects only WARN/INFO changes or none (`require.Empty`).
// Our verdict: breaking when the diff finds a change breaking for clients.
//
// Each difference is either reviewed (a row of docs/spec-review.md's table of differences kept,
// with why ours stands) or listed as not reviewed.
//
// Usage: node scripts/oasdiff-agreement.ts OASDIFF_CHECKOUT [--bin bin/flag-admin.js] [--list]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { bin: { type: 'string', default: 'bin/flag-admin.js' }, list: { type: 'boolean', default: false } } });
const root = positionals[0];
if (!root || !existsSync(join(root, 'checker', 'rules.go'))) {
  console.error('usage: node scripts/oasdiff-agreement.ts OASDIFF_CHECKOUT [--bin FILE] [--list]  (a checkout with checker/ and data/)');
  process.exit(2);
}
const checker = join(root, 'checker');

// The level oasdiff gives each change id: `newBackwardCompatibilityRule(FooId, ERR, ...)`.
const levels = new Map<string, string>();
for (const m of readFileSync(join(checker, 'rules.go'), 'utf8').matchAll(/newBackwardCompatibilityRule\(\s*(\w+Id)\s*,\s*(ERR|WARN|INFO)/g)) levels.set(m[1]!, m[2]!);

/**
 * A test function, or each of its subtests: `t.Run("name", ...)` blocks are separate cases that
 * reuse the variable names (`s1, s2`) for other documents, so read as one function they would pair
 * the last subtest's documents with every subtest's expectations. Each subtest is read with the
 * function's text before the first `t.Run` (documents opened there are shared).
 */
function subtests(fn: string): { name: string; fn: string }[] {
  const name = /^(Test\w+)\(t \*testing\.T\)/.exec(fn)?.[1];
  if (!name) return [];
  const [preamble, ...blocks] = fn.split(/\n\s*t\.Run\(/);
  if (blocks.length === 0) return [{ name, fn }];
  return blocks.map((block) => ({ name: `${name}/${/^"([^"]*)"/.exec(block)?.[1] ?? '?'}`, fn: `${preamble!}\n${block}` }));
}

interface Case {
  old: string;
  new: string;
  breaking: boolean;
  tests: string[];
}
const cases = new Map<string, Case>();

for (const file of readdirSync(checker).filter((f) => f.endsWith('_test.go'))) {
  const source = readFileSync(join(checker, file), 'utf8');
  for (const unit of source.split(/\nfunc /).slice(1).flatMap(subtests)) {
    const { name, fn } = unit;
    // Documents by the variable they are opened into.
    const docs = new Map<string, string>();
    for (const m of fn.matchAll(/(\w+), (?:_|err) :?= open\("\.\.\/data\/([^"]+)"\)/g)) docs.set(m[1]!, m[2]!);
    for (const m of fn.matchAll(/(\w+) :?= l\(t, (\d+)\)/g)) docs.set(m[1]!, `openapi-test${m[2]}.yaml`);
    const call = /diff\.Get\w*\([^,()]+(?:\([^)]*\))?,\s*(\w+),\s*(\w+)\)/.exec(fn);
    if (!call || !docs.has(call[1]!) || !docs.has(call[2]!)) continue;
    // Edited in Go before the diff: not a pair of documents as written.
    if (/\.Spec\.[^\n]*[^=!<>:]=[^=]|\.Spec\.[^\n]*\.(Set|Delete)\(|Extensions\[/.test(fn)) continue;
    // A level the test states (`Level: checker.ERR`, `require.Equal(t, checker.INFO, x.GetLevel())`)
    // is the one oasdiff gives that change here, which may differ from its id's default level.
    const stated = [...fn.matchAll(/Level:\s*checker\.(ERR|WARN|INFO)|require\.Equal\(t, checker\.(ERR|WARN|INFO), [\w.[\]]+\.GetLevel\(\)\)/g)].map((m) => (m[1] ?? m[2])!);
    // Ids the test says are absent (`require.False(t, containsId(...))`, `require.NotEqual`) are not expected.
    const asserted = fn.split('\n').filter((line) => !/\b(?:require|assert)\.(?:False|NotEqual|NotContains)\(/.test(line)).join('\n');
    const ids = [...asserted.matchAll(/checker\.(\w+Id)\b/g)].map((m) => levels.get(m[1]!)).filter((l): l is string => l !== undefined);
    // Nothing breaking: an empty result of CheckBackwardCompatibility (its ERR and WARN changes), whatever it is named.
    const checked = [...fn.matchAll(/(\w+) :?= checker\.CheckBackwardCompatibility\(/g)].map((m) => m[1]!);
    const empty = (/require\.(Empty|Len)\(t, errs(, 0)?\)/.test(fn) || checked.some((v) => new RegExp(`require\\.(Empty\\(t, ${v}\\)|Len\\(t, ${v}, 0\\))`).test(fn))) && !/require\.NotEmpty/.test(fn);
    if (stated.length === 0 && ids.length === 0 && !empty) continue;
    const breaking = (stated.length > 0 ? stated : ids).includes('ERR');
    const [old, now] = [docs.get(call[1]!)!, docs.get(call[2]!)!];
    if (old === now) continue;
    const key = `${old} → ${now}`;
    const known = cases.get(key);
    if (known) {
      known.breaking ||= breaking;
      known.tests.push(name);
    } else cases.set(key, { old, new: now, breaking, tests: [name] });
  }
}

let read = 0;
let agree = 0;
let theirBreaking = 0;
let recalled = 0;
const falseBreaking: string[] = [];
const missed: string[] = [];
const unread: string[] = [];
// The differences reviewed by hand and kept, each with its reason: the table under REVIEWED in
// docs/spec-review.md, one row per pair (`OLD → NEW` under data/, oasdiff's verdict, ours). A
// difference stays one in the figures above; the review says whether it is a fault of ours.
const REVIEWED = '| pair (under data/) | oasdiff | ours | why ours stands |';
const page = readFileSync(new URL('../docs/spec-review.md', import.meta.url), 'utf8').split('\n');
const review = new Map<string, { oasdiff: string; ours: string }>();
const rows = page.indexOf(REVIEWED) < 0 ? [] : page.slice(page.indexOf(REVIEWED) + 2);
for (const row of rows.slice(0, rows.findIndex((r) => !r.startsWith('|')))) {
  const [pair, oasdiff, ours] = row.split(' | ').map((cell) => cell.replace(/^\| /, '').replaceAll('`', '').trim());
  review.set(pair!, { oasdiff: oasdiff!, ours: ours! });
}
const reviewed = new Set<string>();
const verdict = (breaking: boolean) => (breaking ? 'breaking' : 'not breaking');
for (const c of cases.values()) {
  const run = spawnSync(process.execPath, [resolve(values.bin), 'spec', 'diff', join(root, 'data', c.old), join(root, 'data', c.new), '--format', 'json', '--as-of', '2026-11-24'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status === 2 || !run.stdout) {
    unread.push(`${c.old} → ${c.new}: ${run.stderr.trim().split('\n')[0]}`);
    continue;
  }
  read++;
  const report = JSON.parse(run.stdout) as { breaking: { client: number }; changes: { ruleId: string; client: string; message: string }[] };
  const ours = report.breaking.client > 0;
  if (c.breaking) theirBreaking++;
  if (ours === c.breaking) agree++;
  if (ours && c.breaking) recalled++;
  const why = report.changes.filter((x) => x.client === 'breaking').map((x) => `${x.ruleId}: ${x.message}`).join('; ');
  const key = `${c.old} → ${c.new}`;
  const kept = review.get(key);
  const ok = ours !== c.breaking && kept?.oasdiff === verdict(c.breaking) && kept.ours === verdict(ours);
  if (ok) reviewed.add(key);
  const mark = ok ? ' [reviewed]' : '';
  if (ours && !c.breaking) falseBreaking.push(`${key} (${c.tests.join(', ')})${mark}: ours ${why}`);
  if (!ours && c.breaking) missed.push(`${key} (${c.tests.join(', ')})${mark}: ours ${report.changes.map((x) => `${x.ruleId}[${x.client}]`).join(', ') || 'no change'}`);
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
console.log(`oasdiff corpus (${root}), cases: ${cases.size}, read: ${read}`);
console.log(`agreement: ${agree}/${read} (${pct(agree, read)})`);
console.log(`breaking recall: ${recalled}/${theirBreaking} (${pct(recalled, theirBreaking)})`);
console.log(`breaking where oasdiff expects none: ${falseBreaking.length}; missed breaking: ${missed.length}; not read: ${unread.length}`);
const differences = falseBreaking.length + missed.length;
const stale = [...review.keys()].filter((key) => !reviewed.has(key));
console.log(`reviewed and kept (docs/spec-review.md): ${reviewed.size} of ${differences} differences; not reviewed: ${differences - reviewed.size}; review rows no longer matching a difference: ${stale.length}`);
for (const key of stale) console.log(`  stale review row: ${key}`);
if (values.list) {
  for (const [title, list] of [['breaking where oasdiff expects none', falseBreaking], ['missed breaking', missed], ['not read', unread]] as const) {
    console.log(`\n## ${title} (${list.length})`);
    for (const line of list) console.log(`- ${line}`);
  }
}
