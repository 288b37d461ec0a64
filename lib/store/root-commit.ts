import type { CommitSpec } from '../git/fast-import';
import { FORMAT_PATH, FORMAT_TEXT_V1, ROOT_COMMIT } from './memory-format';

/**
 * The deterministic root commit: only the FORMAT file (of version 1, so branches written before
 * and after the layout change share this root), fixed identity, date and message.
 */
export function rootCommitSpec(): CommitSpec {
  return {
    identity: ROOT_COMMIT.identity,
    epochSeconds: ROOT_COMMIT.epochSeconds,
    message: ROOT_COMMIT.message,
    from: null,
    files: new Map([[FORMAT_PATH, FORMAT_TEXT_V1]]),
  };
}

/**
 * The commits of one write: on top of `tip`, or — when the branch does not exist yet — the
 * root first and the write on top of it (mark `:1`), so nobody has to run `init` first.
 */
export function commitsOnto(tip: string | null, spec: Omit<CommitSpec, 'from'>): CommitSpec[] {
  return tip === null ? [rootCommitSpec(), { ...spec, from: ':1' }] : [{ ...spec, from: tip }];
}
