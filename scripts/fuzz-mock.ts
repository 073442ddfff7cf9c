// The mock's property-based fuzz at length (see test/mock-fuzz.ts): by default 10,000 sequences,
// about 100,000 requests over real sockets. Usage: node scripts/fuzz-mock.ts [runs=10000] [seed]
import { DEFAULT_FUZZ_SEED, fuzzMock } from '../test/mock-fuzz.ts';

const runs = Number(process.argv[2] ?? 10_000);
const seed = Number(process.argv[3] ?? DEFAULT_FUZZ_SEED);
const started = performance.now();
const sent = await fuzzMock({ runs, seed });
console.log(`fuzz: ${runs} sequences, ${sent} requests, seed ${seed}: no 5xx, every error {id, name, message}, state as the model predicts (${((performance.now() - started) / 1000).toFixed(0)} s)`);
