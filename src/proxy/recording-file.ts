import { accessSync, constants, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordedFixture } from './fixture-recorder.ts';

/**
 * Before the proxy starts: the folder --record writes into exists and may be written, so a
 * recording is not lost at the end of a session (`--record fixtures/staging.json` in a project
 * without fixtures/ failed only at Ctrl-C). Throws a RecordingError saying what to do.
 */
export function checkRecordingFile(file: string): void {
  const folder = dirname(file);
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new RecordingError(`--record ${file}: the folder ${folder} does not exist; create it (mkdir -p ${folder}) or record elsewhere`);
  }
  if (!isFolder) throw new RecordingError(`--record ${file}: ${folder} is not a folder`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new RecordingError(`--record ${file}: the folder ${folder} cannot be written`);
  }
  try {
    if (statSync(file).isDirectory()) throw new RecordingError(`--record ${file}: is a folder; name a file`);
  } catch (error) {
    if (error instanceof RecordingError) throw error;
  }
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
