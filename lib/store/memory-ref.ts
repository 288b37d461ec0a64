import { CapsuleError } from '../errors/capsule-error';
import { DEFAULT_MEMORY_REF } from './memory-format';
import type { GitRunner } from './git-runner';

/** The config keys the store reads, in one git call. */
export interface RepoConfig {
  /** `capsule.ref` as declared (last value wins, as git does); undefined when not set. */
  capsuleRef?: string;
  userName?: string;
  userEmail?: string;
}

/** Reads `capsule.ref`, `user.name` and `user.email` with one `git config` call. Throws GIT_FAILED. */
export async function readRepoConfig(git: GitRunner): Promise<RepoConfig> {
  const out = await git.run(['config', '--null', '--get-regexp', '^(capsule\\.ref|user\\.name|user\\.email)$'], { okExitCodes: [1] });
  const config: RepoConfig = {};
  for (const record of out.stdout.split('\0')) {
    if (record === '') continue;
    const nl = record.indexOf('\n');
    const key = (nl < 0 ? record : record.slice(0, nl)).toLowerCase();
    const value = nl < 0 ? '' : record.slice(nl + 1);
    if (key === 'capsule.ref') config.capsuleRef = value;
    else if (key === 'user.name') config.userName = value;
    else if (key === 'user.email') config.userEmail = value;
  }
  return config;
}

/**
 * The one memory-ref resolver: `capsule.ref` when declared, else `refs/heads/capsules`. A
 * declared ref that is malformed or outside `refs/` throws MEMORY_ROOT (message starts
 * `MEMORY-ROOT:`); it never falls back to the default, since writing capsules to a ref the user
 * did not mean would scatter them.
 */
export function resolveMemoryRef(declared: string | undefined): string {
  if (declared === undefined) return DEFAULT_MEMORY_REF;
  const reason = refFormatProblem(declared);
  if (reason !== null) {
    throw new CapsuleError(
      'MEMORY_ROOT',
      `MEMORY-ROOT: git config capsule.ref is ${JSON.stringify(declared)}, which ${reason}; expected a full ref name such as ${DEFAULT_MEMORY_REF}. Fix it with: git config capsule.ref ${DEFAULT_MEMORY_REF}`,
      { declared, reason },
    );
  }
  return declared;
}

/** Why `ref` is not a usable memory ref (git's check-ref-format rules, plus `refs/`), or null. */
export function refFormatProblem(ref: string): string | null {
  if (ref.trim() === '') return 'is empty';
  if (!ref.startsWith('refs/')) return 'is outside refs/';
  if (ref.split('/').length < 3) return 'names no ref below a namespace (refs/<namespace>/<name>)';
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(ref)) return 'contains a character git forbids in ref names';
  if (ref.includes('..') || ref.includes('//') || ref.includes('@{')) return 'contains "..", "//" or "@{"';
  if (ref.endsWith('/') || ref.endsWith('.')) return 'ends with "/" or "."';
  if (ref.split('/').some((c) => c.startsWith('.') || c.endsWith('.lock') || c === '')) return 'has a component starting with "." or ending with ".lock"';
  return null;
}
