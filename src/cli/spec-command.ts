import { relative } from 'node:path';
import { ContractError } from '../contract/index.ts';
import { BUNDLE_FORMATS, type BundleFormat } from '../spec-review/bundle-spec.ts';
import { collectDecisions, DECISIONS_KEY, renderDecisionsJson, renderDecisionsMarkdown } from '../spec-review/decisions.ts';
import { COMPARE_FORMATS, renderCompare, type CompareFormat } from '../spec-review/compare/compare-report.ts';
import { DIFF_FORMATS, renderDiff, type DiffFormat } from '../spec-review/diff/diff-report.ts';
import { LINT_FORMATS, renderLint, type LintFormat } from '../spec-review/lint-report.ts';
import { LINT_PROFILES, type LintProfile } from '../spec-review/lint-profiles.ts';
import { readSpecSource, SpecReadError, STDIN, type SpecSource } from '../spec-review/spec-source.ts';
import { DEFAULT_SPEC_FILE } from '../contract/load-contract.ts';
import { didYouMean } from './did-you-mean.ts';
import { UsageError, usageFailure, type CommandIo } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { SPEC_VERBS, type SpecVerb } from './spec-verbs.ts';

export const SPEC_USAGE = `Usage: flag-admin spec <verb> [options]    (FILE defaults to the kit's spec/openapi.yaml)

  lint [FILE] [--format text|json|junit|github] [--profile recommended|kit] [--api-description FILE]
      structure and Redocly's recommended ruleset; with the kit profile (the default for the
      kit's own spec) the kit's rules too. The decisions are checked against an API
      description when one is at hand: --api-description, or spec/API.md for the kit's spec.
      Every message with file:line:column and its rule id. Exit 1 on an error.
  decisions [FILE] [--format markdown|json]
      every point the API description leaves open and what the spec decided (x-decisions).
  bundle [FILE] [--format yaml|json] [--dereference]
      one self-contained document on stdout; --dereference replaces every $ref by its target.
  diff OLD NEW [--format text|json|markdown] [--fail-on any|clients|servers|none] [--as-of YYYY-MM-DD]
      every change from OLD to NEW, classified for clients and servers (breaking, warning,
      info); --as-of is the day sunset dates are judged against (default today). '-' reads a
      spec from stdin, e.g.
        git show main:spec/openapi.yaml | flag-admin spec diff - spec/openapi.yaml
      Exit 1 on a change breaking for clients or servers (--fail-on picks whom; default any).
  compare OURS THEIRS [--operations common|ours|ID,ID...] [--format text|json|markdown]
      OURS held against THEIRS (e.g. the kit's spec against the provider's published one) on the
      operations both hold, paired by method and path template, then by operationId: what
      breaks a client written against one calling a server of the other, each way, with both
      positions. --operations ours also reports our operations THEIRS lacks; a list of our
      operationIds compares only those. Exit 1 on a difference breaking a client either way.

Exit codes: 0 fine, 1 lint errors or breaking changes, 2 bad usage or an unreadable spec.
`;

const DECISION_FORMATS = ['markdown', 'json'] as const;

/** Each verb's runner: a verb of SPEC_VERBS without one, or one with no verb, does not compile. */
const RUNNERS: Record<SpecVerb, (argv: string[], io: CommandIo) => Promise<number>> = { lint, decisions, bundle, diff, compare };

/** `flag-admin spec <verb>`: one of SPEC_VERBS. */
export async function specCommand(argv: string[], io: CommandIo): Promise<number> {
  const [verb, ...rest] = argv;
  try {
    if (verb !== undefined && Object.hasOwn(RUNNERS, verb)) return await RUNNERS[verb as SpecVerb](rest, io);
    const meant = verb === undefined ? undefined : didYouMean(verb, SPEC_VERBS);
    throw new UsageError(verb === undefined ? `expected a verb: ${SPEC_VERBS.join(', ')}` : `unknown verb "${verb}"${meant ? ` (did you mean "${meant}"?)` : ''}; expected one of ${SPEC_VERBS.join(', ')}`);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure('spec', error.message, io);
    if (error instanceof SpecReadError || error instanceof ContractError) {
      io.stderr(`flag-admin spec ${verb}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const meant = didYouMean(value, allowed);
  throw new UsageError(`--${flag} expects one of ${allowed.join(', ')}, got ${JSON.stringify(value)}${meant ? ` (did you mean ${meant}?)` : ''}`);
}

function atMostOneFile(positionals: string[]): string {
  if (positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${positionals.length}: ${positionals.join(' ')}`);
  // The kit's own spec, named as a path from here so messages stay short and clickable.
  return positionals[0] ?? (relative(process.cwd(), DEFAULT_SPEC_FILE) || DEFAULT_SPEC_FILE);
}

async function lint(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, { format: { type: 'string' }, profile: { type: 'string' }, 'api-description': { type: 'string' } }, { positionals: true });
  const format = oneOf<LintFormat>('format', values.format, LINT_FORMATS, 'text');
  const profile = values.profile === undefined ? undefined : oneOf<LintProfile>('profile', values.profile, LINT_PROFILES, 'recommended');
  // The linters resolve $refs and report positions from the file's own folder, so lint needs a file.
  if (positionals[0] === STDIN) throw new UsageError('lint reads a FILE, not stdin (-): its $refs resolve from its folder');
  // Loaded per verb: the linter (Redocly) is the heaviest import, and only `lint` needs it.
  const { lintSpec } = await import('../spec-review/lint-spec.ts');
  const result = await lintSpec(atMostOneFile(positionals), { profile, apiDescriptionFile: values['api-description'] });
  io.stdout(renderLint(result, format));
  return result.errors > 0 ? 1 : 0;
}

async function decisions(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, { format: { type: 'string' } }, { positionals: true });
  const format = oneOf('format', values.format, DECISION_FORMATS, 'markdown');
  const source = await readSpecSource(atMostOneFile(positionals));
  const { decisions: found, problems } = collectDecisions(source.document);
  if (problems.length > 0) {
    const first = problems[0]!;
    const { line, column } = source.positionOf(first.pointer);
    throw new SpecReadError(`${source.file}:${line}:${column} #${first.pointer}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more; run flag-admin spec lint)` : ''}`);
  }
  if (format === 'markdown' && found.length === 0) io.stdout(`${source.file}: no decisions recorded (no ${DECISIONS_KEY} entry anywhere in the document)\n`);
  else io.stdout(format === 'json' ? renderDecisionsJson(source.document, found) : renderDecisionsMarkdown(source.document, found));
  return 0;
}

async function bundle(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, { format: { type: 'string' }, dereference: { type: 'boolean' } }, { positionals: true });
  const format = oneOf<BundleFormat>('format', values.format, BUNDLE_FORMATS, 'yaml');
  const { bundleSpec } = await import('../spec-review/bundle-spec.ts');
  io.stdout(await bundleSpec(await readSpecSource(atMostOneFile(positionals)), { format, dereference: values.dereference ?? false }));
  return 0;
}

/** The two specs a verb holds against each other (`first` and `second` name them in messages), read in order: a file each, or one of them stdin. */
async function twoSpecs(positionals: string[], first: string, second: string): Promise<[SpecSource, SpecSource]> {
  if (positionals.length !== 2) throw new UsageError(`expected ${first} and ${second} (a file, or - for stdin), got ${positionals.length} argument(s)`);
  if (positionals[0] === STDIN && positionals[1] === STDIN) throw new UsageError(`only one of ${first} and ${second} can be read from stdin (-)`);
  return [await readSpecSource(positionals[0]!), await readSpecSource(positionals[1]!)];
}

const FAIL_ON = ['any', 'clients', 'servers', 'none'] as const;

async function diff(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, { format: { type: 'string' }, 'fail-on': { type: 'string' }, 'as-of': { type: 'string' } }, { positionals: true });
  const format = oneOf<DiffFormat>('format', values.format, DIFF_FORMATS, 'text');
  const asOf = values['as-of'] === undefined ? new Date() : new Date(values['as-of']);
  if (Number.isNaN(asOf.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(values['as-of'] ?? '0000-00-00')) throw new UsageError(`--as-of expects a date (YYYY-MM-DD), got ${JSON.stringify(values['as-of'])}`);
  const failOn = oneOf('fail-on', values['fail-on'], FAIL_ON, 'any');
  const [older, newer] = await twoSpecs(positionals, 'OLD', 'NEW');
  const { diffSpecs } = await import('../spec-review/diff/diff-specs.ts');
  const result = await diffSpecs(older, newer, { asOf });
  io.stdout(renderDiff(result, format));
  const breaking = { any: result.breaking.client + result.breaking.server, clients: result.breaking.client, servers: result.breaking.server, none: 0 }[failOn];
  return breaking > 0 ? 1 : 0;
}

async function compare(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, { format: { type: 'string' }, operations: { type: 'string' } }, { positionals: true });
  const format = oneOf<CompareFormat>('format', values.format, COMPARE_FORMATS, 'text');
  const operations = values.operations ?? 'common';
  const selection = operations === 'common' || operations === 'ours' ? operations : operations.split(',').map((id) => id.trim()).filter(Boolean);
  if (Array.isArray(selection) && selection.length === 0) throw new UsageError(`--operations expects common, ours or a list of operationIds, got ${JSON.stringify(operations)}`);
  const [ours, theirs] = await twoSpecs(positionals, 'OURS', 'THEIRS');
  const { compareSpecs } = await import('../spec-review/compare/compare-specs.ts');
  const result = await compareSpecs(ours, theirs, selection);
  io.stdout(renderCompare(result, format));
  return result.breaking.ours + result.breaking.theirs > 0 ? 1 : 0;
}
