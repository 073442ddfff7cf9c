export { seededRandom } from '../conformance/seeded-random.ts';
