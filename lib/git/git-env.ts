/**
 * `-c` options passed to every git call that writes: never run the user's hooks (fast-import
 * and update-ref fire `reference-transaction`; `gc --auto` fires `pre-auto-gc`), never sign,
 * never prompt.
 */
export const WRITE_CONFIG: readonly string[] = [
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'commit.gpgSign=false',
  '-c', 'tag.gpgSign=false',
];

/**
 * The environment git runs with: the caller's (so GIT_DIR and friends set by a git hook still
 * apply) plus no terminal prompts, no editor, no pager, and the C locale so stderr can be matched.
 */
export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_MERGE_AUTOEDIT: 'no',
    LC_ALL: 'C',
    LANGUAGE: 'C',
  };
}

/** A git identity: name and email, as fast-import writes them. */
export interface GitIdentity {
  name: string;
  email: string;
}

/** Used when neither the environment nor `user.name`/`user.email` give an identity. */
export const FALLBACK_IDENTITY: GitIdentity = { name: 'git-capsule', email: 'git-capsule@localhost' };

/**
 * The committer of capsule commits: GIT_COMMITTER_* from the environment, then the user's
 * config, then the fixed fallback, so a machine with no identity still writes without a prompt.
 */
export function resolveIdentity(env: NodeJS.ProcessEnv, config: { name?: string; email?: string }): GitIdentity {
  const clean = (v: string | undefined) => (v ?? '').replace(/[<>\n\r\0]/g, '').trim();
  const name = clean(env.GIT_COMMITTER_NAME) || clean(config.name) || FALLBACK_IDENTITY.name;
  const email = clean(env.GIT_COMMITTER_EMAIL) || clean(config.email) || FALLBACK_IDENTITY.email;
  return { name, email };
}
