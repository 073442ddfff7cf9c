// Round fourteen (round-14/servers.ts, round-14/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('fourteen', TARGETS, new URL('./known-misses.json', import.meta.url));
