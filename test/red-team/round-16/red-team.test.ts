// Round sixteen (round-16/servers.ts, round-16/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('sixteen', TARGETS, new URL('./known-misses.json', import.meta.url));
