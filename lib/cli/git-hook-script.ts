/** The git hooks git-capsule installs. */
export const GIT_HOOK_EVENTS = ['pre-push', 'post-merge', 'post-rewrite'] as const;
export type GitHookEvent = (typeof GIT_HOOK_EVENTS)[number];

/** The line that marks a hook file as ours; install and uninstall recognise their own files by it. */
export const GIT_HOOK_MARKER = '# git-capsule-hook v1';

/** Suffix of the user's own hook, moved aside at install and called first by ours. */
export const CHAINED_SUFFIX = '.capsule-chained';

/** The command a hook uses when install was not given the bundled CLI's path. */
export const DEFAULT_CLI_COMMAND = 'git capsule';

const PURPOSE: Record<GitHookEvent, { what: string; args: string; failure: string; when?: string }> = {
  'pre-push': {
    what: 'pushes the capsule memory branch along with your push',
    // $1 is the remote name (or the URL when pushing to a URL).
    args: 'sync --quiet -- "$1"',
    failure: 'memory branch not pushed',
  },
  'post-merge': {
    what: "fetches and merges the remote's capsule memory branch after a pull",
    args: 'sync --quiet --no-push',
    failure: 'memory branch not merged',
  },
  'post-rewrite': {
    what: "fetches and merges the remote's capsule memory branch after a `git pull --rebase` that rebased (one that fast-forwards runs post-merge)",
    args: 'sync --quiet --no-push',
    failure: 'memory branch not merged',
    // git pull exports GIT_REFLOG_ACTION ("pull --rebase …") to the rebase it runs; a rebase or
    // amend of your own makes no network call.
    when: '[ "$1" = rebase ] && case "${GIT_REFLOG_ACTION:-}" in pull*) true ;; *) false ;; esac && ',
  },
};

/** Quotes one word for POSIX sh. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The POSIX shell text of one hook. It calls the user's moved-aside hook first (same arguments,
 * same stdin), stops with its status when it failed, then, only when `capsule.autoSync` is true,
 * runs the CLI; a failure of ours prints one line on stderr and never changes the exit status.
 * `cliCommand` is already shell-quoted (e.g. `'/usr/bin/node' '/opt/gc/dist/git-capsule.js'`).
 */
export function renderGitHook(event: GitHookEvent, cliCommand: string = DEFAULT_CLI_COMMAND): string {
  const p = PURPOSE[event];
  return `#!/bin/sh
${GIT_HOOK_MARKER} ${event}
# ${p.what}, when \`git config capsule.autoSync\` is true.
# Installed by \`git capsule git-hooks install\`; \`git capsule git-hooks uninstall\` restores
# the hook that was here before. A failure of git-capsule never blocks your ${event === 'pre-push' ? 'push' : 'pull'}.
status=0
chained="$0${CHAINED_SUFFIX}"
if [ -x "$chained" ]; then
  "$chained" "$@"
  status=$?
  [ "$status" -ne 0 ] && exit "$status"
fi
if ${p.when ?? ''}[ "$(git config --bool capsule.autoSync 2>/dev/null)" = "true" ]; then
  out=$(${cliCommand} ${p.args} 2>&1 </dev/null) ||
    printf 'git-capsule: %s (%s)\\n' '${p.failure}' "$(printf '%s\\n' "$out" | tail -n 1)" >&2
fi
exit "$status"
`;
}
