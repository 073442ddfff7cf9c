import { loadContract } from '../../src/contract/index.ts';
import { BROKEN_TARGETS } from './broken-targets.ts';
import { runCheck, targetArgs } from './run-check.ts';
const contract = await loadContract({ validate: false });
for (const pattern of process.argv.slice(2)) {
  const target = BROKEN_TARGETS.find((t) => t.name.includes(pattern))!;
  const server = await target.serve(contract);
  const run = await runCheck(targetArgs(server.url, target.args));
  await server.close();
  console.log('==', target.name, target.errors, [...new Set(run.report!.findings.map((f) => f.checkId))]);
  for (const f of run.report!.findings.filter((f) => !target.errors.includes(f.checkId))) console.log(f.severity, f.checkId, '|', f.message.slice(0, 400));
}
process.exit(0);
