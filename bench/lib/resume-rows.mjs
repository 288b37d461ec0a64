// The resume verb's row: the whole SessionStart(clear) procedure without consuming, so every
// round measures the same selection (the newest active capsule stays active).

/** `git capsule resume --no-consume`: guard, store, selection, render, within the hook limit. */
export function resumeRow({ bundle, fixture }) {
  return {
    name: 'resume (select + render, no consume)',
    command: process.execPath,
    args: [bundle, 'resume', '--no-consume', '--session-id', 'bench-session'],
    cwd: fixture.dir,
    check: (stdout) => stdout.length <= 10_000 && stdout.includes('CAPSULE DATA ('),
  };
}
