import { expect, it } from 'vitest';
import { DEFAULT_FUZZ_SEED, fuzzMock } from '../../test/mock-fuzz.ts';

// 400 random sequences of up to 20 requests (about 2,500 requests) in npm test; the same
// property runs 100,000 requests in `node scripts/fuzz-mock.ts`. A failure prints the seed and
// the shrunk sequence; FUZZ_SEED reruns it.
const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_FUZZ_SEED);

it(`never answers 5xx, answers every error as {id, name, message}, and keeps the state a model predicts (seed ${seed})`, async () => {
  const sent = await fuzzMock({ runs: 400, seed });
  expect(sent).toBeGreaterThan(1000);
}, 120_000);
