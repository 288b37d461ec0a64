// The store's rows: each returns a command to time. Other helpers add their own row modules
// (hooks, resume) exporting functions of the same shape and list them in run.mjs.

/** Selecting the newest active capsule: the cheap CLI path the resume hook's selection uses. */
export function selectNewestActiveRow({ bundle, fixture }) {
  return {
    name: 'select newest active',
    command: process.execPath,
    args: [bundle, 'list', '--status', 'active', '--limit', '1', '--json'],
    cwd: fixture.dir,
    check: (stdout) => JSON.parse(stdout).length === 1,
  };
}

/** Writing one capsule: validate, one fast-import commit with its index update, CAS. */
export function writeCapsuleRow({ bundle, fixture }) {
  return {
    name: 'write one capsule',
    command: process.execPath,
    args: [bundle, 'write', '--objective', 'Benchmark write', '--waiting-on', 'nothing', '--next', 'Measure again'],
    cwd: fixture.dir,
    check: (stdout) => /^[0-9A-Z]{26}\n$/.test(stdout),
  };
}
