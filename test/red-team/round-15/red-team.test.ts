// Round fifteen (round-15/servers.ts, round-15/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('fifteen', TARGETS, new URL('./known-misses.json', import.meta.url));
