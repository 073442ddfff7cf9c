// The mock's property-based fuzz at length (see test/mock-fuzz.ts): rounds of 1,000 sequences
// with successive seeds until the requests sent reach the target (default 100,000), over real
// sockets. Usage: node scripts/fuzz-mock.ts [requests=100000] [seed]
import { DEFAULT_FUZZ_SEED, fuzzMock } from '../test/mock-fuzz.ts';

const target = Number(process.argv[2] ?? 100_000);
const firstSeed = Number(process.argv[3] ?? DEFAULT_FUZZ_SEED);
const started = performance.now();
let sent = 0;
let seed = firstSeed;
while (sent < target) {
  sent += await fuzzMock({ runs: 1000, seed, maxLength: 30 });
  console.log(`  seed ${seed}: ${sent.toLocaleString('en-US')} requests so far`);
  seed++;
}
console.log(`fuzz: ${sent.toLocaleString('en-US')} requests, seeds ${firstSeed}-${seed - 1}: no 5xx, every error {id, name, message}, state as the model predicts (${((performance.now() - started) / 1000).toFixed(0)} s)`);
