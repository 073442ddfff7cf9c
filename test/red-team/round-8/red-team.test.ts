// Round eight (round-8/servers.ts, round-8/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('eight', TARGETS, new URL('./known-misses.json', import.meta.url));
