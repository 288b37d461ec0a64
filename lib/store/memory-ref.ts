import { CapsuleError } from '../errors/capsule-error';
import { DEFAULT_MEMORY_REF } from './memory-format';

/** The config keys the store reads, in one git call. */
export interface RepoConfig {
  /** `capsule.ref` as declared (last value wins, as git does); undefined when not set. */
  capsuleRef?: string;
  userName?: string;
  userEmail?: string;
}

/** `capsule.ref`, `user.name` and `user.email` from the config values (lib/git/config-snapshot.ts). */
export function repoConfigFrom(values: Readonly<Record<string, string>>): RepoConfig {
  return { capsuleRef: values['capsule.ref'], userName: values['user.name'], userEmail: values['user.email'] };
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
