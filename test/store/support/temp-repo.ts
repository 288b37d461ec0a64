import { rmSync } from 'node:fs';
import { tempDir as makeTempDir } from '../../support/temp-dirs';
import { renderCapsule } from '../../../lib/capsule/render';
import { emptySections } from '../../../lib/capsule/sections';
import { makeIsolatedRepo, READ_ONLY_GIT_ENV, runGit } from '../../support/repo';

/** The roots of the repositories made here, by repository dir, so `cleanup(dir)` removes everything. */
const roots = new Map<string, string>();

/** A temporary directory removed by `cleanup`. */
export function tempDir(prefix = 'capsule-repo-'): string {
  return makeTempDir(prefix);
}

/** Runs real git in `cwd` (no system or global config unless `env` says) and returns its trimmed stdout. */
export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = READ_ONLY_GIT_ENV): string {
  return runGit(cwd, args, env);
}

/** A fresh repository with an identity and one commit on main (unless `empty`), isolated from the developer's config. */
export function makeRepo(opts: { empty?: boolean; bare?: boolean; identity?: boolean } = {}): { dir: string; env: NodeJS.ProcessEnv } {
  const repo = makeIsolatedRepo({ bare: opts.bare, commits: opts.empty ? 0 : 1, identity: opts.identity === false ? false : undefined });
  roots.set(repo.dir, repo.root);
  return { dir: repo.dir, env: repo.env };
}

/** Removes directories made by these helpers (a repository's HOME and state go with it). */
export function cleanup(...dirs: string[]): void {
  for (const d of dirs) {
    rmSync(roots.get(d) ?? d, { recursive: true, force: true });
    roots.delete(d);
  }
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
