import { Worker } from 'node:worker_threads';
import { checkStructure } from './check-structure.ts';
import type { LintFinding } from './lint-finding.ts';
import { SpecReadError, type SpecSource } from './spec-source.ts';

/**
 * From this many characters of JSON up, lint runs the structure check in a worker thread while
 * Redocly's lint runs on the main thread: on GitHub's 13 MB the check (its own JSON.parse, the
 * OpenAPI schema compiled and validated over the whole document, every pattern tried) is ~0.7 s
 * that no longer adds to Redocly's ~4 s, on a machine with a second core. Below it, a worker's
 * start (a thread, the check's modules loaded again: ~0.2 s of CPU) costs more than it saves.
 */
export const STRUCTURE_OFF_THREAD_FROM = 1_000_000;

/**
 * Whether lint checks this document's structure off the main thread: a large JSON text, which the
 * worker reads again with JSON.parse as the main thread did. A YAML text is parsed once, by
 * Redocly's parser on the main thread (lint-spec.ts), so it is checked there.
 */
export function structureOffThread(source: SpecSource): boolean {
  return source.json && source.text.length >= STRUCTURE_OFF_THREAD_FROM;
}

/** checkStructure(source), run in a worker thread on the same text; with the thread's id. */
export function checkStructureOffThread(source: SpecSource): Promise<{ findings: LintFinding[]; threadId: number }> {
  // The checkout runs the TypeScript sources, the package the built JavaScript beside them.
  const entry = new URL(import.meta.url.endsWith('.ts') ? './structure-worker.ts' : './structure-worker.js', import.meta.url);
  const worker = new Worker(entry, { workerData: { file: source.file, absolutePath: source.absolutePath, text: source.text } });
  return new Promise((resolve, reject) => {
    worker.once('message', (answer: { findings: LintFinding[] } | { readError: string }) => {
      if ('readError' in answer) reject(new SpecReadError(answer.readError));
      else resolve({ findings: answer.findings, threadId: worker.threadId });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the structure check's worker thread exited (${code}) without an answer`)));
  });
}

/** The structure check, off the main thread where structureOffThread says so. */
export async function checkStructureWherever(source: SpecSource): Promise<LintFinding[]> {
  return structureOffThread(source) ? (await checkStructureOffThread(source)).findings : checkStructure(source);
}
