// Round seventeen (round-17/servers.ts, round-17/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('seventeen', TARGETS, new URL('./known-misses.json', import.meta.url));
