import type { GitRunner } from './git-runner';

/** What git says of the signature on the last commit that changed a path: verified or not, and by whom. */
export interface SignatureCheck {
  /** Git's own verdict (`%G?` is `G`): a good signature by a key its trust settings accept (for ssh, `gpg.ssh.allowedSignersFile`). */
  verified: boolean;
  /** `%G?` as git printed it: G good, U good but of unknown validity, N none, B bad, E cannot be checked, X/Y/R expired or revoked. */
  status: string;
  /** The signer git names (`%GS`: the principal of an ssh allowed-signers line, a gpg user id), when there is a signature. */
  signer: string | null;
  /** The commit checked, or null when no commit of `rev` changed the path. */
  commit: string | null;
}

/**
 * Git's own signature check of the last commit of `rev` that changed `path` (`git log -1
 * --format=%G?`), the commit that brought that version of a file in. Git runs gpg or ssh-keygen
 * itself, with the repository's own settings; nothing here decides trust. Throws GIT_FAILED.
 */
export async function lastSignature(git: GitRunner, rev: string, path: string): Promise<SignatureCheck> {
  const out = await git.run(['log', '-1', '--format=%H%x1f%G?%x1f%GS', rev, '--', path]);
  const [commit = '', status = 'N', signer = ''] = out.stdout.trim().split('\x1f');
  if (commit === '') return { verified: false, status: 'N', signer: null, commit: null };
  return { verified: status === 'G', status, signer: signer === '' ? null : signer, commit };
}
