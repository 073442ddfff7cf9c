/**
 * Under npm (`npm start`, `npx flag-admin mock`) the mock runs as `sh -c "…"` → node. On SIGTERM
 * npm signals only that shell (npm's run-script forwards signals to its child), which dies and
 * leaves node serving the port, adopted by init. So, when started by npm, a stopped parent
 * stops the mock too: `process.ppid` changes when the parent is gone. Outside npm nothing is
 * watched, so `nohup flag-admin mock &` keeps running after its shell exits, as it should.
 * Returns a function that stops watching.
 */
export function stopWithParent(env: Record<string, string | undefined>, stop: () => void, everyMs = 250): () => void {
  if (env.npm_lifecycle_event === undefined) return () => {};
  const parent = process.ppid;
  const timer = setInterval(() => process.ppid !== parent && stop(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Resolves on SIGINT or SIGTERM (or, under npm, when npm's shell is gone): how a serving command
 * waits to stop. Call it before the banner: a caller that reads "listening on" may stop it at once.
 */
export function untilStopped(env: Record<string, string | undefined>): Promise<void> {
  return new Promise<void>((resolve) => {
    const unwatchParent = stopWithParent(env, () => stop());
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      unwatchParent();
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
