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

/** No commit of the revision changed the path. */
const NO_COMMIT: SignatureCheck = { verified: false, status: 'N', signer: null, commit: null };

// The programs git runs to check a signature are named by config, which a hostile repository can
// set (`gpg.ssh.program=./x`): a hook must never run them. Git's own defaults, found on PATH,
// are pinned for every check, so `show`, `list` and the resume ledger all say the same.
const PINNED_PROGRAMS: readonly string[] = ['-c', 'gpg.program=gpg', '-c', 'gpg.ssh.program=ssh-keygen', '-c', 'gpg.x509.program=gpgsm'];

/**
 * Git's own signature check of the last commit of `rev` that changed each of `paths`, in one
 * `git log` (paths on its standard input, so any number fits): the commit that brought that
 * version of each file in. Git runs gpg or ssh-keygen itself, with the repository's trust
 * settings (allowed signers, keyring); nothing here decides trust. A path no commit changed maps
 * to `commit: null`. Throws GIT_FAILED.
 */
export async function lastSignatures(git: GitRunner, rev: string, paths: readonly string[]): Promise<Map<string, SignatureCheck>> {
  const out = new Map<string, SignatureCheck>();
  const wanted = new Set(paths.filter((p) => p !== '' && !p.includes('\n')));
  if (wanted.size === 0) return out;
  // Each commit: a record separator, then `%H␟%G?␟%GS`, then the names it changed (of `paths` only).
  // Newest first: once every path has its commit, the rest of the walk (the whole branch's
  // history, ~0.5 s at 10,000 commits) cannot change the answer, and git is stopped.
  const log = await git.run([...PINNED_PROGRAMS, 'log', '--no-renames', '--format=%x1e%H%x1f%G?%x1f%GS', '--name-only', '--stdin', rev], {
    input: `--\n${[...wanted].join('\n')}\n`,
    until: (lines) => parseChecks(lines, wanted, new Map()).size === wanted.size,
  });
  parseChecks(log.stdout, wanted, out);
  for (const p of wanted) if (!out.has(p)) out.set(p, NO_COMMIT);
  return out;
}

/** Adds to `out` the first (newest) commit of the log output `text` that names each of `wanted`; returns `out`. */
function parseChecks(text: string, wanted: ReadonlySet<string>, out: Map<string, SignatureCheck>): Map<string, SignatureCheck> {
  for (const record of text.split('\x1e')) {
    const [head = '', ...names] = record.split('\n');
    const [commit = '', status = 'N', signer = ''] = head.split('\x1f');
    if (commit === '') continue;
    const check: SignatureCheck = { verified: status === 'G', status, signer: signer === '' ? null : signer, commit };
    for (const name of names) if (wanted.has(name) && !out.has(name)) out.set(name, check);
    if (out.size === wanted.size) break;
  }
  return out;
}

/** `lastSignatures` of one path. Throws GIT_FAILED. */
export async function lastSignature(git: GitRunner, rev: string, path: string): Promise<SignatureCheck> {
  return (await lastSignatures(git, rev, [path])).get(path) ?? NO_COMMIT;
}
