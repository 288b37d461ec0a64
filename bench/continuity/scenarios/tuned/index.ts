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
// This round's tuned twins of the held-out shapes (issue 30), written blind like the held-out half.
import { followUpLint } from './follow-up-lint';
import { agreementLimit } from './agreement-limit';
import { correctionIntl } from './correction-intl';
import { newTaskUuid } from './new-task-uuid';
import { threeClearsCache } from './three-clears-cache';
import { taskToolsAcrossClear } from './task-tools-across-clear';
import { subagentLeak } from './subagent-leak';
import { twoWorktreesClear } from './two-worktrees-clear';
import { resumeIdThenClear } from './resume-id-then-clear';
import { branchSwitchByUser } from './branch-switch-by-user';
import { handoffBesideOtherMachine } from './handoff-beside-other-machine';
import { longTwoCompactionsLogging } from './long-two-compactions-logging';
import { germanSessionExport } from './german-session-export';
import { japaneseSessionRetry } from './japanese-session-retry';
import { tersePromptsOk } from './terse-prompts-ok';
import { nextStepColonStreaming } from './next-step-colon-streaming';
import { nextIRotate } from './next-i-rotate';
import { errorResolvedAfterClearFetch } from './error-resolved-after-clear-fetch';
import { handWrittenCapsuleWorktree } from './hand-written-capsule-worktree';

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
  followUpLint,
  agreementLimit,
  correctionIntl,
  newTaskUuid,
  threeClearsCache,
  taskToolsAcrossClear,
  subagentLeak,
  twoWorktreesClear,
  resumeIdThenClear,
  branchSwitchByUser,
  handoffBesideOtherMachine,
  longTwoCompactionsLogging,
  germanSessionExport,
  japaneseSessionRetry,
  tersePromptsOk,
  nextStepColonStreaming,
  nextIRotate,
  errorResolvedAfterClearFetch,
  handWrittenCapsuleWorktree,
];
