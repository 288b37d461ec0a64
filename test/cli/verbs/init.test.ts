import { cliRepo } from './support';

describe('git capsule init', () => {
  it('creates the branch once and reports the same root after', async () => {
    const r = cliRepo();
    const first = JSON.parse((await r.cli(['init', '--json'])).stdout);
    expect(first).toMatchObject({ ref: 'refs/heads/capsules', created: true });
    expect(JSON.parse((await r.cli(['init', '--json'])).stdout)).toEqual({ ...first, created: false });
    r.done();
  });

  it('fails with NOT_A_REPO outside a repository', async () => {
    const { runCli } = await import('../../support/run-cli');
    const { tempDir, cleanup } = await import('../../store/support/temp-repo');
    const dir = tempDir();
    const out = await runCli(['init'], { cwd: dir, env: { ...process.env, GIT_CEILING_DIRECTORIES: dir.replace(/\/[^/]+$/, '') } });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('[NOT_A_REPO]');
    cleanup(dir);
  });
});
