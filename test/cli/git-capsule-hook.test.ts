import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../lib/hosts/claude/hook-events';
import { tempDir } from '../support/temp-dirs';

const ROOT = join(__dirname, '..', '..');

// bin/git-capsule-hook is what a committed --project registration runs: every event file the
// registrations name must reach its bundle (PostCompact's did not: "unknown hook", exit 0).
describe('bin/git-capsule-hook', () => {
  const dir = tempDir('capsule-hook-wrapper-');
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist', 'hooks'), { recursive: true });
  copyFileSync(join(ROOT, 'bin', 'git-capsule-hook'), join(dir, 'bin', 'git-capsule-hook'));
  for (const { file } of Object.values(HOOK_EVENTS)) writeFileSync(join(dir, 'dist', 'hooks', `${file}.js`), `process.stdout.write('ran ${file}')`);

  it.each(Object.entries(HOOK_EVENTS))('runs the %s bundle', (_event, { file }) => {
    const r = spawnSync('/bin/sh', [join(dir, 'bin', 'git-capsule-hook'), file, '--capsule-hook'], { encoding: 'utf8' });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: `ran ${file}`, stderr: '' });
  });

  it('fails open on a name it does not know: exit 0, one line on stderr', () => {
    const r = spawnSync('/bin/sh', [join(dir, 'bin', 'git-capsule-hook'), 'nope'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^git-capsule-hook: unknown hook 'nope' \(one of .*post-compact.*\)\n$/);
  });
});
