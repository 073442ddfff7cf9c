/**
 * Access-log lines written together once per turn of the event loop (or at 64 KiB), in order. Node
 * writes to a pipe or a file synchronously on Linux, one system call per write: a line per request
 * cost the proxy 6 to 9 µs of CPU per request, 13 to 18% of all it spends (docs/proxy.md, Cost).
 * What is pending is written when the process exits, a crash included, and on `close()`.
 */
export function batchedLines(write: (text: string) => void): { write(text: string): void; close(): void } {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  process.on('exit', flush);
  return {
    write(text) {
      pending += text;
      if (pending.length >= 64 * 1024) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    close() {
      flush();
      process.off('exit', flush);
    },
  };
}
