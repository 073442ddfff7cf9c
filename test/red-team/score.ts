// Scores the suite on the red team's targets: runs `flag-admin check` against each, one at a
// time, and prints a Markdown table (target, broken?, exit code, finding check ids) and the totals.
//
//   npx node test/red-team/score.ts                 every target
//   npx node test/red-team/score.ts NAME...         only these targets
//   npx node test/red-team/score.ts --out FILE      also write the table to FILE
//   npx node test/red-team/score.ts --round 6 ...   the targets of round-6/servers.ts instead
import { writeFile } from 'node:fs/promises';
import { type CheckOutcome, runCheck } from './run-check.ts';
import type { RedTeamTarget } from './servers.ts';

const argv = process.argv.slice(2);
const roundAt = argv.indexOf('--round');
const round = roundAt >= 0 ? argv[roundAt + 1] : undefined;
if (roundAt >= 0 && (round === undefined || !/^\d+$/.test(round))) {
  process.stderr.write('score: --round needs a NUMBER (a folder round-NUMBER/ with servers.ts)\n');
  process.exit(2);
}
const args = roundAt >= 0 ? [...argv.slice(0, roundAt), ...argv.slice(roundAt + 2)] : argv;
// Each round keeps its own servers.ts (and known-misses.json): the latest round of the main folder by default.
const { TARGETS } = (await import(round === undefined ? './servers.ts' : `./round-${round}/servers.ts`)) as { TARGETS: RedTeamTarget[] };
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args[outAt + 1] : undefined;
if (outAt >= 0 && out === undefined) {
  process.stderr.write('score: --out needs a FILE\n');
  process.exit(2);
}
const names = outAt >= 0 ? [...args.slice(0, outAt), ...args.slice(outAt + 2)] : args;
const unknown = names.filter((n) => !TARGETS.some((t) => t.name === n));
if (unknown.length) {
  process.stderr.write(`score: no target named ${unknown.join(', ')}; the targets are:\n  ${TARGETS.map((t) => t.name).join('\n  ')}\n`);
  process.exit(2);
}
const chosen = names.length ? TARGETS.filter((t) => names.includes(t.name)) : TARGETS;

const outcomes: CheckOutcome[] = [];
for (const target of chosen) {
  const outcome = await runCheck(target);
  outcomes.push(outcome);
  process.stderr.write(`${outcome.expected ? 'ok  ' : 'MISS'} ${target.name}  exit ${outcome.exitCode}  ${outcome.seconds.toFixed(1)} s\n`);
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const lines = [
  '| target | broken? | exit | as expected | error findings (check ids) | description |',
  '|---|---|---|---|---|---|',
  ...outcomes.map((o) => {
    const target = chosen.find((t) => t.name === o.target)!;
    const verdict = o.expected ? (o.broken ? 'caught' : 'passed') : o.broken ? '**missed**' : '**false alarm**';
    return `| \`${o.target}\` | ${o.broken ? 'yes' : 'no'} | ${o.exitCode ?? 'killed'} | ${verdict} | ${o.errorChecks.map((c) => `\`${c}\``).join(', ') || '-'} | ${cell(target.description)} |`;
  }),
];
const broken = outcomes.filter((o) => o.broken);
const conformant = outcomes.filter((o) => !o.broken);
const totals = `caught ${broken.filter((o) => o.expected).length}/${broken.length} broken, false alarms ${conformant.filter((o) => !o.expected).length}/${conformant.length} conformant`;
const text = `${lines.join('\n')}\n\n${totals}\n`;
process.stdout.write(text);
if (out) await writeFile(out, text);
