import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';

// bin/ is plain JavaScript (it runs before anything is compiled): its type, as own-modules.test.ts takes own-modules.js.
// @ts-expect-error: plain JavaScript of the bin, no declarations.
const { exitWhenWritten } = (await import('../../bin/exit-when-written.js')) as { exitWhenWritten(code: number, streams?: readonly Writable[], exit?: (code: number) => void): void };

/** A stream that takes `ms` to write each chunk, and keeps what it wrote. */
function slowStream(ms: number): Writable & { written: string } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      setTimeout(() => {
        stream.written += chunk.toString();
        callback();
      }, ms);
    },
  }) as Writable & { written: string };
  stream.written = '';
  return stream;
}

describe('exitWhenWritten (bin/flag-admin.js, after check)', () => {
  it('ends the process with the code only once every write before it, on each stream, has gone out', async () => {
    const stdout = slowStream(30);
    const stderr = slowStream(10);
    stdout.write('the report\n');
    stderr.write('a warning\n');
    const exits: { code: number; stdout: string; stderr: string }[] = [];
    exitWhenWritten(1, [stdout, stderr], (code: number) => void exits.push({ code, stdout: stdout.written, stderr: stderr.written }));
    expect(exits).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(exits).toEqual([{ code: 1, stdout: 'the report\n', stderr: 'a warning\n' }]);
  });

  it('ends it all the same when a stream is gone (a closed pipe)', async () => {
    const stdout = slowStream(0);
    stdout.destroy();
    stdout.on('error', () => {});
    const exits: number[] = [];
    exitWhenWritten(0, [stdout], (code: number) => void exits.push(code));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exits).toEqual([0]);
  });
});
