export { seededRandom } from '../conformance/plan/seeded-random.ts';
