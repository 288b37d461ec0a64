// The order jest hands test files to its two workers: the longest first, so that neither worker
// starts a long file near the end while the other sits idle. Jest's own sequencer orders by the
// run times it cached on this machine, and with no cache (a fresh clone, CI) by file size, which
// says little here: the slowest files are short files that start git or a real client. So a
// file jest has no time for gets its time from the list below (seconds, from a full run on two
// cores), and any other file a guess by lane; failed files still go first, as jest's do.
const { join, relative, sep } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = join(__dirname, '..', '..');

// Files over ~10 s in a full `npm test`; refresh from the reporter's slowest files when they move.
// From jest's own times of a fresh-clone `npm test` on 2026-12-06 at ~23:07 UTC (files summed
// 1,465 s on two workers); the two team simulations scaled by their CPU time after their scale
// cut (sync 101 -> 46 s, e2e 76 -> 54 s, each file alone on one worker).
const SECONDS = {
  'test/e2e/copilot-clear.test.ts': 60,
  'test/store/concurrency.test.ts': 76,
  'test/sync/team-simulation.test.ts': 65,
  'test/hardening/concurrent-sync.test.ts': 65,
  'test/sync/sync-memory.test.ts': 45,
  'test/hardening/hostile-capsules.test.ts': 41,
  'test/hardening/secrets-every-channel.test.ts': 39,
  'test/hardening/slow-git.test.ts': 38,
  'test/e2e/team-simulation.test.ts': 37,
  'test/e2e/background-stop.test.ts': 37,
  'test/e2e/copilot-cross-host.test.ts': 45,
  'test/e2e/claude-session.test.ts': 32,
  'test/e2e/codex-tui.test.ts': 30,
  'test/hardening/transcript-memory.test.ts': 30,
  'test/e2e/async-hooks.test.ts': 28,
  'test/sync/out-of-layout.test.ts': 28,
  'test/e2e/resume-lineage.test.ts': 24,
  'test/e2e/install-project.test.ts': 24,
  'test/sync/hostile-remote.test.ts': 24,
  'test/e2e/supervise-session.test.ts': 23,
  'test/sync/stale-lock.test.ts': 21,
  'test/supervise-runtime/run-supervisor.test.ts': 20,
  'test/sync/layout2-remote.test.ts': 20,
  'test/sync/publish.test.ts': 17,
  'test/e2e/session-binding.test.ts': 16,
  'test/e2e/install-routes.test.ts': 16,
  'test/hooks/lineage-hooks.test.ts': 16,
  'test/e2e/cross-host.test.ts': 15,
  'test/cli/doctor-routes.test.ts': 15,
  'test/hooks/await-autosave.test.ts': 14,
  'test/cli/verbs/resume.test.ts': 14,
  'test/hardening/kill-safety.test.ts': 14,
  'test/e2e/two-clones.test.ts': 13,
  'test/store/layout-upgrade.test.ts': 13,
  'test/sync/signed-publish.test.ts': 13,
  'test/e2e/budget-session.test.ts': 12,
  'test/resume-runtime/run-resume.test.ts': 12,
  'test/store/stop-bytes.test.ts': 12,
  'test/sync/checked-out-sync.test.ts': 12,
  'test/sync/sealed-remote.test.ts': 11,
  'test/hooks/fail-open.test.ts': 11,
  'test/cli/git-hooks-install.test.ts': 10,
  'test/git/housekeeping.test.ts': 10,
  'test/sync/legacy-remote.test.ts': 10,
};

// A file in neither jest's cache nor the list: the lanes' typical file (unit files are pure code).
const GUESS = { unit: 0.4, git: 5, hardening: 10, e2e: 12 };

class LongestFirst extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const rel = relative(ROOT, test.path).split(sep).join('/');
    if (SECONDS[rel] !== undefined) return SECONDS[rel] * 1000;
    return (GUESS[test.context.config.displayName?.name] ?? GUESS.git) * 1000;
  }

  sort(tests) {
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    for (const test of tests) test.duration = this.time(test);
    return tests.sort((a, b) => Number(this.hasFailed(b)) - Number(this.hasFailed(a)) || b.duration - a.duration || size(b) - size(a));
  }
}

module.exports = LongestFirst;
