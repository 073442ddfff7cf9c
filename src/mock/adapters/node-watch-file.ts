import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Calls `onChange` after `file` changes, once per burst of events. The folder is watched, not
 * the file: editors often save by writing a new file and renaming it over the old one, which
 * ends a watch on the file itself. Returns a function that stops watching.
 */
export function watchFile(file: string, onChange: () => void, settleMs = 100): () => void {
  const name = basename(file);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = watch(dirname(file), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, settleMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
