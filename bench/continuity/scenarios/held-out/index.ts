import type { Scenario } from '../../scenario-types';
import { followUpDst } from './follow-up-dst';
import { agreementCap } from './agreement-cap';
import { correctionHelper } from './correction-helper';
import { newTaskAfterDone } from './new-task-after-done';
import { threeClears } from './three-clears';
import { taskTools } from './task-tools';
import { subagentRootCause } from './subagent-root-cause';
import { twoWorktrees } from './two-worktrees';
import { resumeThenClear } from './resume-then-clear';
import { branchSwitch } from './branch-switch';
import { handoffBesideTeammate } from './handoff-beside-teammate';
import { longTwoCompactions } from './long-two-compactions';
import { germanSession } from './german-session';
import { japaneseSession } from './japanese-session';
import { tersePrompts } from './terse-prompts';
import { nextStepColon } from './next-step-colon';
import { nextIVerb } from './next-i-verb';
import { errorResolvedAfterClear } from './error-resolved-after-clear';
import { handWrittenCapsule } from './hand-written-capsule';

/**
 * The held-out half: written blind from issue 30's list of shapes (by someone who had not read
 * lib/transcript, lib/work-state or lib/hooks), run once to prove each runs end to end, and never
 * edited after the commit that added them. Whoever tunes the extraction does not read this folder;
 * its scores are reported beside the tuned half's, untouched.
 */
export const HELD_OUT: readonly Scenario[] = [
  followUpDst,
  agreementCap,
  correctionHelper,
  newTaskAfterDone,
  threeClears,
  taskTools,
  subagentRootCause,
  twoWorktrees,
  resumeThenClear,
  branchSwitch,
  handoffBesideTeammate,
  longTwoCompactions,
  germanSession,
  japaneseSession,
  tersePrompts,
  nextStepColon,
  nextIVerb,
  errorResolvedAfterClear,
  handWrittenCapsule,
];
