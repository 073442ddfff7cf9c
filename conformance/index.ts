// The conformance suite's public surface: run it, render its report, know its checks.
export { runConformance } from './run.ts';
export { checkCommand } from './cli.ts';
export { CHECKS, CHECK_IDS } from './checks/registry.ts';
export { renderConsole } from './reporters/console.ts';
export { renderJson } from './reporters/json.ts';
export { renderJunit } from './reporters/junit.ts';
export { UsageError } from './errors.ts';
export { exitCode } from './cli.ts';
export type { ConformanceOptions } from './options.ts';
export type * from './types.ts';
