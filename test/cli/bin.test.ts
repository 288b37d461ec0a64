import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(__dirname, '..', '..', 'bin');

describe('bin/git-capsule', () => {
  it('lets git run the tool as `git capsule` once bin/ is on PATH', () => {
    const r = spawnSync('git', ['capsule', '--version'], {
      env: { ...process.env, PATH: `${BIN}:${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^git-capsule \d+\.\d+\.\d+/);
  });

  it('stops quietly when the reader of its output goes away (git capsule help | true)', () => {
    const cli = join(__dirname, '..', '..', 'dist', 'git-capsule.js');
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" help | true`], { encoding: 'utf8' });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
