// The project a bench runs in: a fresh repository on `main` with one commit (a README), under
// `dir`, with the committer `identity`; git runs with `env`, so no user or system config leaks in.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Creates the repository at `dir` (and its parents). */
export function makeProjectRepo(dir, env, identity = { name: 'Bench', email: 'bench@example.com' }) {
  mkdirSync(dir, { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', identity.email);
  git('config', 'user.name', identity.name);
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
}
