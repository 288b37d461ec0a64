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
const SECONDS = {
  'test/sync/team-simulation.test.ts': 92,
  'test/store/concurrency.test.ts': 76,
  'test/hardening/concurrent-sync.test.ts': 75,
  'test/e2e/copilot-clear.test.ts': 26,
  'test/e2e/copilot-cross-host.test.ts': 30,
  'test/e2e/team-simulation.test.ts': 55,
  'test/sync/sync-memory.test.ts': 47,
  'test/e2e/async-hooks.test.ts': 36,
  'test/hardening/secrets-every-channel.test.ts': 38,
  'test/hardening/transcript-memory.test.ts': 37,
  'test/hardening/hostile-capsules.test.ts': 34,
  'test/hardening/slow-git.test.ts': 45,
  'test/e2e/resume-lineage.test.ts': 30,
  'test/sync/hostile-remote.test.ts': 29,
  'test/e2e/codex-tui.test.ts': 27,
  'test/e2e/codex-session.test.ts': 26,
  'test/sync/publish.test.ts': 24,
  'test/sync/out-of-layout.test.ts': 23,
  'test/git/object-reader.test.ts': 10,
  'test/e2e/claude-session.test.ts': 21,
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
