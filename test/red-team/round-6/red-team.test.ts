// Round six (round-6/servers.ts, round-6/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('six', TARGETS, new URL('./known-misses.json', import.meta.url));
