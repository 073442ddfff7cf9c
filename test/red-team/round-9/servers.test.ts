// Every round-nine target's witness sees its defect (or its unusual behaviour) on the target, and
// nothing on the faithful app (describe-round.ts, shared by the rounds).
import { describeWitnesses } from '../describe-round.ts';
import { TARGETS } from './servers.ts';
import { WITNESSES } from './witnesses.ts';

describeWitnesses('nine', TARGETS, WITNESSES);
