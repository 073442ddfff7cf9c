// Round nine (round-9/servers.ts, round-9/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('nine', TARGETS, new URL('./known-misses.json', import.meta.url));
