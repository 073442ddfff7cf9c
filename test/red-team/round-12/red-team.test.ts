// Round twelve (round-12/servers.ts, round-12/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('twelve', TARGETS, new URL('./known-misses.json', import.meta.url));
