// Round seven (round-7/servers.ts, round-7/known-misses.json) through the real CLI: see ../describe-round.ts.
import { describeRound } from '../describe-round.ts';
import { TARGETS } from './servers.ts';

describeRound('seven', TARGETS, new URL('./known-misses.json', import.meta.url));
