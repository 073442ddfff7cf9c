import { afterEach } from 'vitest';

/** A list of servers (anything with close()) that the file's tests push to; each is closed after its test, the last started first. */
export function closedAfterEach(): { close(): Promise<void> }[] {
  const running: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of running.splice(0).reverse()) await server.close();
  });
  return running;
}
