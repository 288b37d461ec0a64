import type { Scenario } from '../../scenario-types';
import { authoredCapsule } from './authored-capsule';
import { backgroundAndCi } from './background-and-ci';
import { chitChat } from './chit-chat';
import { compactThenClear } from './compact-then-clear';
import { correction } from './correction';
import { errorsOpenAndResolved } from './errors-open-and-resolved';
import { finalMessageNextStep } from './final-message-next-step';
import { hostileAndSecret } from './hostile-and-secret';
import { longSession } from './long-session';
import { objectiveDrift } from './objective-drift';
import { pytest } from './pytest';
import { questionWaits } from './question-waits';
import { twoSessions } from './two-sessions';
import { typecheck } from './typecheck';

/**
 * The tuned half: the scenarios the extraction may be tuned on (the first rounds' fourteen, the
 * three once held out among them, and this round's tuned twins of the held-out shapes).
 */
export const TUNED: readonly Scenario[] = [
  objectiveDrift,
  finalMessageNextStep,
  questionWaits,
  errorsOpenAndResolved,
  longSession,
  compactThenClear,
  twoSessions,
  hostileAndSecret,
  chitChat,
  backgroundAndCi,
  authoredCapsule,
  pytest,
  correction,
  typecheck,
];
