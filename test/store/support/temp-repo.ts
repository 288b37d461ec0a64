import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tempDir as makeTempDir } from '../../support/temp-dirs';
import { join } from 'node:path';
import { renderCapsule } from '../../../lib/capsule/render';
import { emptySections } from '../../../lib/capsule/sections';

/** An environment with no user config at all: no ~/.gitconfig, no system config, no identity. */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = makeTempDir('capsule-home-');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), CAPSULE_STATE_DIR: join(home, 'state'), TZ: 'UTC', ...extra };
  return env;
}

/** A temporary directory removed by `cleanup`. */
export function tempDir(prefix = 'capsule-repo-'): string {
  return makeTempDir(prefix);
}

/** Runs real git in `cwd` and returns its trimmed stdout. */
export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = isolatedEnv()): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
}

/** A fresh repository with an identity and one commit on main (unless `empty`). */
export function makeRepo(opts: { empty?: boolean; bare?: boolean; identity?: boolean } = {}): { dir: string; env: NodeJS.ProcessEnv } {
  const env = isolatedEnv();
  const dir = tempDir();
  git(dir, ['init', '-q', '-b', 'main', ...(opts.bare ? ['--bare'] : [])], env);
  if (opts.identity !== false) {
    git(dir, ['config', 'user.name', 'Test User'], env);
    git(dir, ['config', 'user.email', 'test@example.com'], env);
  }
  if (!opts.empty && !opts.bare) {
    git(dir, ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '--allow-empty', '-m', 'initial'], env);
  }
  return { dir, env };
}

/** Removes directories made by these helpers. */
export function cleanup(...dirs: string[]): void {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

/** A valid capsule document with the given overrides of the frontmatter. */
export function capsuleText(fields: Record<string, unknown> = {}): string {
  return renderCapsule({
    frontmatter: {
      id: '01JDQ7000000000000000000AB',
      objective: 'Make the store write capsules',
      waiting_on: 'nothing',
      next_valid_action: 'Run the store tests',
      status: 'active',
      trigger: 'manual',
      created_at: '2026-11-29T20:00:00Z',
      ...fields,
    },
    sections: emptySections(),
    notes: '',
  });
}

/** A ULID-shaped id, distinct per `n` (time part fixed, so all sort by their suffix). */
export function testId(n: number): string {
  return `01JDQ7${String(n).padStart(20, '0')}`;
}
