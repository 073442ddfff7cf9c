// Round eleven (round-11/servers.ts, round-11/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('eleven', TARGETS, new URL('./known-misses.json', import.meta.url));
