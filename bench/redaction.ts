// What keeping secrets out of reports costs (issue 13): per rendered text, and for a whole run of
// the suite against a target whose every error is a finding, with and without echoes of the key.
// Usage: node bench/redaction.ts [runs=7]
import { loadContract } from '../src/contract/index.ts';
import { createMock, serveHandler } from '../src/mock/index.ts';
import { runConformance } from '../conformance/run.ts';
import { createRedactor } from '../conformance/report/secret-redactor.ts';
import { ADMIN_KEY } from './targets.ts';
import { median } from './stats.ts';

const runs = Number(process.argv[2] ?? 7);
/** The embedded fixtures' viewer key: a public test value, like ADMIN_KEY. */
const VIEWER_KEY = 'mock-viewer-key';

function timeEach(texts: readonly string[], redactorOf: () => (text: string) => string): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    // A fresh redactor per trial: its cache would otherwise turn every trial after the first into lookups.
    const redact = redactorOf();
    // CPU time, not wall time: the machine is shared, and this is the process's own work.
    const started = process.cpuUsage();
    for (const text of texts) redact(text);
    const used = process.cpuUsage(started);
    samples.push((used.user + used.system) / texts.length);
  }
  return samples;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');
const errorBody = (i: number, echo: string) => JSON.stringify({ id: `error-${i}`, name: 'AuthenticationRequired', message: `missing or invalid API key ${echo}`, detail: 'x'.repeat(400) });
const texts = {
  'a 600-character error excerpt, no secret': Array.from({ length: 200 }, (_, i) => errorBody(i, '')),
  'the same with the key in base64': Array.from({ length: 200 }, (_, i) => errorBody(i, `Basic ${base64(`u${i}:${ADMIN_KEY}`)}`)),
  'a 120-character finding message': Array.from({ length: 200 }, (_, i) => `environments of project "p${i}": answered 401 with a body naming the error kind AuthenticationRequired; API §7 fixes NoAccessError`),
};
console.log(`redaction per text, ${runs} trials of 200 texts each (µs of CPU, median)`);
for (const [name, list] of Object.entries(texts)) {
  const keys = timeEach(list, () => createRedactor([ADMIN_KEY, VIEWER_KEY]));
  const short = timeEach(list, () => createRedactor(['x']));
  console.log(`  ${name.padEnd(44)} keys ${median(keys).toFixed(0).padStart(6)}   a 1-character secret ${median(short).toFixed(0).padStart(6)}`);
}

// A whole run: every error answer renamed so that each is a finding whose excerpt is rendered.
const contract = await loadContract({ validate: false });
async function runOnce(echo: boolean): Promise<{ ms: number; findings: number }> {
  const mock = createMock({ contract });
  const server = await serveHandler((request) => {
    const response = mock.handle(request);
    if (response.status < 400) return response;
    const key = String(request.headers.authorization ?? '');
    return { ...response, body: JSON.stringify({ id: 'e', name: 'Oops', message: echo ? `key ${base64(key)} ${encodeURIComponent(key)} ${[...key].reverse().join('')}` : 'refused' }) };
  }, { port: 0 });
  try {
    const started = performance.now();
    const report = await runConformance({ baseUrl: server.url, apiKey: ADMIN_KEY, restrictedKey: VIEWER_KEY, allowDelete: true, tokens: ['1/1', '1/2', '2/4'] });
    return { ms: performance.now() - started, findings: report.findings.length };
  } finally {
    await server.close();
  }
}
await runOnce(true); // warm-up: imports and JIT
const trials = { plain: [] as number[], echoed: [] as number[] };
let findings = 0;
// Interleaved, so that a busy moment of the machine falls on both.
for (let i = 0; i < runs; i++) {
  trials.plain.push((await runOnce(false)).ms);
  const echoed = await runOnce(true);
  trials.echoed.push(echoed.ms);
  findings = echoed.findings;
}
console.log(`a run of the suite, ${runs} interleaved trials (ms of wall time, median)`);
console.log(`  errors are findings, no echo      ${median(trials.plain).toFixed(0).padStart(6)}  (${findings} findings)`);
console.log(`  the same, each echoing the key    ${median(trials.echoed).toFixed(0).padStart(6)}  ratio ${(median(trials.echoed) / median(trials.plain)).toFixed(2)}`);
