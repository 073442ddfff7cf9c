// The conformance suite's public surface: run it, render its report, know its checks.
export { runConformance } from './run.ts';
export { checkCommand } from './cli.ts';
export { CHECKS, CHECK_IDS, RULES, RULE_IDS } from './judge/registry.ts';
export { renderConsole } from './report/console.ts';
export { renderJson } from './report/json.ts';
export { renderJunit } from './report/junit.ts';
export { UsageError } from './errors.ts';
export { exitCode } from './cli.ts';
export type { ConformanceOptions } from './options.ts';
export type * from './types.ts';
