// Every round-sixteen target's witness sees its defect (or its unusual behaviour) on the target, and
// nothing on the faithful app (describe-round.ts, shared by the rounds); each conformant target
// also answers the ordinary requests as the spec says.
import { describeOrdinaryAnswers, describeWitnesses } from '../describe-round.ts';
import { TARGETS } from './servers.ts';
import { ask, WITNESSES } from './witnesses.ts';

describeWitnesses('sixteen', TARGETS, WITNESSES);

describeOrdinaryAnswers('sixteen', TARGETS, ask);
