// Round ten (round-10/servers.ts, round-10/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('ten', TARGETS, new URL('./known-misses.json', import.meta.url));
