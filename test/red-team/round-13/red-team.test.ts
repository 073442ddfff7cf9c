// Round thirteen (round-13/servers.ts, round-13/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('thirteen', TARGETS, new URL('./known-misses.json', import.meta.url));
