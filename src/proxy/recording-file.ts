import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordedFixture } from './fixture-recorder.ts';

/**
 * Before the proxy starts: the folder an output (--record, --json, --junit) is written into exists
 * and takes a new file, so what a session gathered is not lost at its end (`--record
 * fixtures/staging.json` in a project without fixtures/ failed only at Ctrl-C, and so did a folder
 * nobody may write, `/sys`). The proof is a probe file created and removed in the folder: access
 * checks answer for the mode bits only, which root passes where a read-only mount or sysfs still
 * refuses. `createFolder` (the reports: they are written with their folders) makes a missing folder
 * first. Throws a RecordingError naming the flag, the path and why.
 */
export function checkOutputFile(flag: string, file: string, options: { createFolder?: boolean } = {}): void {
  const folder = dirname(file);
  const refuse = (why: string) => new RecordingError(`${flag} ${file}: ${why}`);
  const reason = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
  if (options.createFolder)
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw refuse(`the folder ${folder} cannot be made (${reason(error)})`);
    }
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw refuse(`the folder ${folder} does not exist; create it (mkdir -p ${folder}) or write elsewhere`);
  }
  if (!isFolder) throw refuse(`${folder} is not a folder`);
  try {
    if (statSync(file).isDirectory()) throw refuse('is a folder; name a file');
  } catch (error) {
    if (error instanceof RecordingError) throw error;
  }
  const probe = `${file}.probe-${process.pid}`;
  try {
    writeFileSync(probe, '', { flag: 'wx' });
  } catch (error) {
    throw refuse(`the folder ${folder} cannot be written (${reason(error)}); choose a folder you may write`);
  }
  rmSync(probe, { force: true });
}

/** checkOutputFile for --record, whose folder must exist (docs/proxy.md). */
export function checkRecordingFile(file: string): void {
  checkOutputFile('--record', file);
}

/** Writes the recording whole or not at all: to a file beside it, then renamed over it. */
export function writeRecording(file: string, recording: RecordedFixture): void {
  const text = `${JSON.stringify(recording.state, null, 2)}\n`;
  const partial = `${file}.partial-${process.pid}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** A --record file the proxy cannot write: said before it starts. */
export class RecordingError extends Error {
  override name = 'RecordingError';
  readonly code = 'RECORDING_FILE';
}
