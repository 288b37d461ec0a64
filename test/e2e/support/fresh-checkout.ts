import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../claude-client';

/**
 * The repository as a clone that ran `npm install` has it: the files git tracks (and new ones
 * not ignored), plus a `node_modules` of `nodeModulesBytes` standing in for the installed
 * dependencies, which no host may copy into its plugin cache. No .e2e client, no dist/ churn.
 */
export function freshCheckout(dir: string, nodeModulesBytes = 8 * 1024 * 1024): string {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) if (existsSync(join(REPO_ROOT, f))) cpSync(join(REPO_ROOT, f), join(dir, f), { recursive: true, verbatimSymlinks: true });
  mkdirSync(join(dir, 'node_modules', 'some-dependency'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'some-dependency', 'blob'), 'x'.repeat(nodeModulesBytes));
  return dir;
}
