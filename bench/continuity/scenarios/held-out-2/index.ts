import type { Scenario } from '../../scenario-types';
import { actuallyFirstGoRatelimit } from './actually-first-go-ratelimit';
import { answeredImportTerraform } from './answered-import-terraform';
import { sameFileSecondErrorEtl } from './same-file-second-error-etl';
import { threeOptionsCssGrid } from './three-options-css-grid';
import { noisyLogsPoolExhaustion } from './noisy-logs-pool-exhaustion';
import { spanishMigrationSqlite } from './spanish-migration-sqlite';
import { terseRustCsvsum } from './terse-rust-csvsum';
import { abandonRedisForLoginHotfix } from './abandon-redis-for-login-hotfix';
import { subagentPushCrashUnfixed } from './subagent-push-crash-unfixed';
import { waitingCiAndReview } from './waiting-ci-and-review';
import { tasklistFlutterRelease } from './tasklist-flutter-release';
import { autocompactSplitBillingUtils } from './autocompact-split-billing-utils';

/**
 * The second held-out half: written blind (by someone who had not read lib/transcript,
 * lib/work-state, lib/hooks or lib/resume), after the first held-out half had been reported for
 * several rounds, so that its score measures the extraction on sessions nobody tuned on or
 * looked at. Never edited after the commit that added the scenarios; whoever tunes the
 * extraction does not read this folder.
 */
export const HELD_OUT_2: readonly Scenario[] = [
  actuallyFirstGoRatelimit,
  answeredImportTerraform,
  sameFileSecondErrorEtl,
  threeOptionsCssGrid,
  noisyLogsPoolExhaustion,
  spanishMigrationSqlite,
  terseRustCsvsum,
  abandonRedisForLoginHotfix,
  subagentPushCrashUnfixed,
  waitingCiAndReview,
  tasklistFlutterRelease,
  autocompactSplitBillingUtils,
];
