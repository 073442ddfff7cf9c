// How `flag-admin check` ends (bin/flag-admin.js): when main() resolves, its reports are written and every connection it opened is
// closed, so the process exits then, with the verdict's code, once what it wrote to stdout and stderr has gone out (a pipe is
// asynchronous on some platforms). Left to end when the event loop drains, it went on for ~10-20 ms to finish a garbage collection
// V8 had begun during the run, which nobody needs at exit: ~18 ms of CPU of a ~300 ms run (bench/RESULTS.md, "flag-admin check
// CPU"). Node still runs the process's 'exit' listeners and saves its compile cache on process.exit().

/**
 * Ends the process with `code` once every write made before this call, on each of `streams`, has gone out (a write's callback
 * comes after those before it), or failed (a closed pipe).
 * @param {number} code
 * @param {readonly import('node:stream').Writable[]} [streams]
 * @param {(code: number) => void} [exit]
 */
export function exitWhenWritten(code, streams = [process.stdout, process.stderr], exit = (c) => process.exit(c)) {
  let pending = streams.length;
  const written = () => {
    pending -= 1;
    if (pending === 0) exit(code);
  };
  if (pending === 0) exit(code);
  for (const stream of streams) stream.write('', written);
}
