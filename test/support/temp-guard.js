// The test run's own temp dir, and the check that every test cleans up after itself.
// globalSetup gives the run a fresh TMPDIR (workers, child processes and the real client
// inherit it), so nothing else on the machine is counted; globalTeardown fails the run when
// anything is left in it, naming the leftovers, and then removes them.
const { mkdtempSync, readdirSync, rmSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const OUTER = 'CAPSULE_TEST_OUTER_TMPDIR';

async function setup() {
  process.env[OUTER] = process.env[OUTER] || tmpdir();
  const dir = mkdtempSync(join(process.env[OUTER], 'capsule-test-run-'));
  process.env.TMPDIR = dir;
  process.env.CAPSULE_TEST_TMPDIR = dir;
}

async function teardown() {
  const dir = process.env.CAPSULE_TEST_TMPDIR;
  if (!dir) return;
  let left = [];
  try {
    left = readdirSync(dir);
  } catch {
    return;
  }
  const size = left.reduce((n, name) => n + du(join(dir, name)), 0);
  rmSync(dir, { recursive: true, force: true });
  process.env.TMPDIR = process.env[OUTER];
  if (left.length > 0 && !process.env.CAPSULE_ALLOW_TEMP_LEFTOVERS) {
    throw new Error(`the tests left ${left.length} entries (${Math.round(size / 1024)} KB) in their temp dir; every test must remove what it creates: ${byPrefix(left)}`);
  }
}

/** "capsule-hook- ×3, capsule-sync-AbC1" : the names without their random suffixes, counted. */
function byPrefix(names) {
  const counts = new Map();
  for (const name of names) {
    const prefix = name.replace(/[A-Za-z0-9]{6}$/, '');
    counts.set(prefix, (counts.get(prefix) || 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([p, n]) => (n > 1 ? `${p}* ×${n}` : p)).join(', ');
}

function du(path) {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) return 0;
    if (!st.isDirectory()) return st.size;
    return readdirSync(path).reduce((n, name) => n + du(join(path, name)), 0);
  } catch {
    return 0;
  }
}

module.exports = { setup, teardown };
