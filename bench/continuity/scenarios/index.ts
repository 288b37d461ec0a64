import type { Scenario } from '../scenario-types';
import { authoredCapsule } from './authored-capsule';
import { backgroundAndCi } from './background-and-ci';
import { chitChat } from './chit-chat';
import { compactThenClear } from './compact-then-clear';
import { errorsOpenAndResolved } from './errors-open-and-resolved';
import { finalMessageNextStep } from './final-message-next-step';
import { heldOutCorrection } from './held-out-correction';
import { heldOutPytest } from './held-out-pytest';
import { heldOutTypecheck } from './held-out-typecheck';
import { hostileAndSecret } from './hostile-and-secret';
import { longSession } from './long-session';
import { objectiveDrift } from './objective-drift';
import { questionWaits } from './question-waits';
import { twoSessions } from './two-sessions';

/** Every scenario of the continuity benchmark, in report order. */
export const SCENARIOS: readonly Scenario[] = [
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
  // Written after the extraction, and not tuned on: a check that the rules are not fitted to the ones above.
  heldOutPytest,
  heldOutCorrection,
  heldOutTypecheck,
];
