// Round five (servers.ts, known-misses.json) through the real CLI: see describe-round.ts.
import { describeRound } from './describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('five', TARGETS, new URL('./known-misses.json', import.meta.url));
