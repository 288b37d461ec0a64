import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { git, makeTempDir, makeTempRepo, type TempRepo } from '../../hooks/hook-fixtures';

type Check = { name: string; status: string; detail: string; fix?: string };
const byName = (out: string) => Object.fromEntries((JSON.parse(out) as Check[]).map((c) => [c.name, c]));

describe('git capsule doctor', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());

  it('reports git and node ok, the missing memory ref and the missing hooks as warnings with fixes', async () => {
    const r = await runCli(['doctor', '--json'], { cwd: repo.dir, env: repo.env });
    const checks = byName(r.stdout);
    expect(r.code).toBe(0);
    expect(checks.git!.status).toBe('ok');
    expect(checks.node!.status).toBe('ok');
    expect(checks['memory ref']).toMatchObject({ status: 'warn' });
    expect(checks.hooks).toMatchObject({ status: 'warn' });
    expect(checks.hooks!.fix).toContain('git capsule install');
  });

  it('sees the hooks install wired and the memory ref once it exists', async () => {
    await runCli(['install'], { cwd: repo.dir, env: repo.env });
    await runCli(['init'], { cwd: repo.dir, env: repo.env });
    const checks = byName((await runCli(['doctor', '--json'], { cwd: repo.dir, env: repo.env })).stdout);
    expect(checks.hooks!.status).toBe('ok');
    expect(checks['memory ref']!.status).toBe('ok');
  });

  it('fails the memory ref with MEMORY_ROOT when capsule.ref is outside refs/', async () => {
    git(repo.dir, 'config', 'capsule.ref', 'heads/capsules');
    const r = await runCli(['doctor', '--json'], { cwd: repo.dir, env: repo.env });
    expect(r.code).toBe(1);
    expect(byName(r.stdout)['memory ref']).toMatchObject({ status: 'fail', detail: expect.stringContaining('MEMORY_ROOT') });
  });

  it('fails when git is not on PATH and says how to fix it', async () => {
    const r = await runCli(['doctor', '--json'], { cwd: repo.dir, env: { ...repo.env, PATH: '/nonexistent' } });
    expect(r.code).toBe(1);
    expect(byName(r.stdout).git).toMatchObject({ status: 'fail', fix: expect.stringContaining('install git') });
  });

  it('fails outside a repository', async () => {
    const outside = makeTempDir();
    try {
      const r = await runCli(['doctor', '--json'], { cwd: outside.dir, env: { PATH: process.env.PATH } });
      expect(r.code).toBe(1);
      expect(byName(r.stdout).repository!.status).toBe('fail');
    } finally {
      outside.cleanup();
    }
  });

  it('names a ref lock a killed git left behind, and not a fresh one', async () => {
    await runCli(['init'], { cwd: repo.dir, env: repo.env });
    const stale = join(repo.dir, '.git', 'refs', 'heads', 'capsules.lock');
    const fresh = join(repo.dir, '.git', 'refs', 'heads', 'main.lock');
    writeFileSync(stale, '');
    writeFileSync(fresh, '');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(stale, old, old);
    const checks = byName((await runCli(['doctor', '--json'], { cwd: repo.dir, env: repo.env })).stdout);
    expect(checks['ref locks']).toMatchObject({ status: 'warn', detail: expect.stringContaining(stale), fix: expect.stringContaining('next write or sync') });
    expect(checks['ref locks']!.detail).not.toContain(fresh);
  });

  it('reports no stale ref locks in a clean repository', async () => {
    expect(byName((await runCli(['doctor', '--json'], { cwd: repo.dir, env: repo.env })).stdout)['ref locks']).toMatchObject({ status: 'ok' });
  });

  it('shows recent coded lines of the error log', async () => {
    mkdirSync(repo.stateDir, { recursive: true });
    writeFileSync(join(repo.stateDir, 'errors.log'), 'HOOK_TIMEOUT 2026-11-29T20:00:00.000Z Stop gave up\n');
    const r = await runCli(['doctor', '--json'], { cwd: repo.dir, env: repo.env, now: new Date('2026-11-29T21:00:00Z') });
    expect(byName(r.stdout).errors).toMatchObject({ status: 'warn', detail: expect.stringContaining('HOOK_TIMEOUT') });
  });
});
