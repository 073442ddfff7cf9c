/**
 * Issue 18, part 4: runs `flag-admin check` against every invariance target and conformant
 * variant (conformance/test/invariance-targets.ts) and prints one line each: caught or not
 * (exit 1 with an error finding), and under which checks. Run before and after a change to the
 * suite to measure it: `npx node scripts/invariance-table.ts`.
 */
import { loadContract } from '../src/contract/index.ts';
import { INVARIANCE_BROKEN_TARGETS, INVARIANCE_CONFORMANT_VARIANTS } from '../conformance/test/invariance-targets.ts';
import { failingChecks, runCheck, targetArgs } from '../conformance/test/run-check.ts';

const contract = await loadContract({ validate: false });
const rows: string[] = ['| target | dimension | verdict | error checks |', '| --- | --- | --- | --- |'];
for (const target of [...INVARIANCE_BROKEN_TARGETS, ...INVARIANCE_CONFORMANT_VARIANTS.map((v) => ({ ...v, dimension: 'conformant', caughtBy: [] as string[] }))]) {
  const server = await target.serve(contract);
  try {
    const run = await runCheck(targetArgs(server.url, target.args));
    const errors = run.report ? failingChecks(run.report, 'error') : [];
    const warned = run.report ? failingChecks(run.report, 'warning') : [];
    const expectedWarnings = 'warnings' in target && Array.isArray(target.warnings) ? target.warnings : [];
    const verdict = target.dimension === 'conformant' ? (run.code === 0 && errors.length === 0 && warned.every((w) => expectedWarnings.includes(w)) ? `passes${warned.length ? ` (warnings by design: ${warned.join(', ')})` : ''}` : `ACCUSED (exit ${run.code})`) : run.code === 1 && errors.length > 0 ? 'caught' : `missed (exit ${run.code})`;
    rows.push(`| ${target.name} | ${target.dimension} | ${verdict} | ${errors.join(', ')} |`);
  } finally {
    await server.close();
  }
}
console.log(rows.join('\n'));
