// The load generator, in a process of its own so that it never competes with the server for
// the same event loop: autocannon driven through IPC by bench/run.ts, one load at a time.
// Latencies are taken from autocannon's per-response times (fractional ms) rather than its
// histogram, which keeps whole milliseconds only.
import autocannon from 'autocannon';
import { percentileOfSorted } from './stats.ts';

export interface LoadRequest {
  url: string;
  method: string;
  path: string;
  /** Paths taken in turn instead of `path` (wrapping around), e.g. to delete distinct tokens. */
  paths?: string[];
  headers?: Record<string, string>;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration?: number;
  amount?: number;
  /** Requests per second over all connections at most (autocannon's overallRate): a load at a given rate instead of flat out. */
  overallRate?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  statuses: Record<string, number>;
  errors: number;
  p50Ms: number;
  p99Ms: number;
}

/** The most latencies kept per load (a 1,000,000-request run keeps every one). */
const MAX_SAMPLES = 2_000_000;

function load(job: LoadRequest): Promise<LoadResult> {
  const latencies = new Float64Array(MAX_SAMPLES);
  let count = 0;
  let next = 0;
  const paths = job.paths;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections,
        // autocannon rejects a duration or amount key holding undefined.
        ...(job.amount !== undefined ? { amount: job.amount } : { duration: job.duration ?? 1 }),
        ...(job.overallRate !== undefined ? { overallRate: job.overallRate } : {}),
        requests: [
          {
            method: job.method as 'GET',
            path: job.path,
            headers: job.headers,
            // autocannon calls setupRequest whenever the key is present, even undefined.
            ...(paths ? { setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length]! }) } : {}),
          },
        ],
      },
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error);
        const sorted = latencies.subarray(0, count).sort();
        const statuses: Record<string, number> = {};
        for (const [status, { count: n }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = Number(n);
        resolve({
          requests: Object.values(statuses).reduce((a, b) => a + b, 0),
          seconds: (Date.parse(String(result.finish)) - Date.parse(String(result.start))) / 1000,
          statuses,
          errors: result.errors + result.timeouts,
          p50Ms: percentileOfSorted(sorted, 50),
          p99Ms: percentileOfSorted(sorted, 99),
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
      if (count < MAX_SAMPLES) latencies[count++] = ms;
    });
  });
}

process.on('message', (job: LoadRequest) => {
  load(job).then(
    (result) => process.send!({ result }),
    (error: Error) => process.send!({ error: error.message }),
  );
});
