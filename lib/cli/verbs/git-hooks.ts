import { createGitRunner } from '../../git/git-runner';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type CliContext, type Verb } from '../context';
import { checkGitHooks } from '../doctor-git-hooks';
import { projectRoot } from '../../hosts/claude/settings-file';
import { bundledCliCommand, gitHooksStatus, installGitHooks, uninstallGitHooks, type GitHooksReport } from '../git-hooks-install';

/** `git capsule git-hooks install|uninstall|status`: the opt-in pre-push, post-merge and post-rewrite sync hooks. */
export const verb: Verb = {
  name: 'git-hooks',
  summary: 'install, remove or show the pre-push / post-merge / post-rewrite hooks that sync the memory branch',
  usage: `usage: git capsule git-hooks <install|uninstall|status> [--cli <path>] [--json]

  install     write pre-push, post-merge and post-rewrite (after a git pull --rebase) into the
              hooks directory (core.hooksPath honoured),
              moving any hook you already have aside as <hook>.capsule-chained and calling it
              first; sets git config capsule.autoSync true
  uninstall   remove our hooks and put yours back exactly as they were; unsets capsule.autoSync
  status      show the hooks directory, capsule.autoSync and each hook
  --cli <path>  the git-capsule.js the hooks run (default: this one; 'git capsule' when unknown)
  --json      print { hooksDir, autoSync, hooks: [{ event, path, state, chained }] }

The hooks act only while capsule.autoSync is true; a failure of theirs never blocks a push or pull.
Installing where a hook manager rewrites the hooks (husky's .husky/_) warns, naming how to chain
the sync into the manager's own files instead ("warnings" in --json).`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('git-hooks', args, { json: { type: 'boolean' }, cli: { type: 'string' } });
    const action = positionals[0];
    if (positionals.length !== 1 || !['install', 'uninstall', 'status'].includes(action ?? '')) {
      throw usageError('git-hooks', 'expected one of install, uninstall, status');
    }
    const git = createGitRunner({ cwd: ctx.cwd, env: ctx.env });
    const report =
      action === 'install' ? await installGitHooks(git, { cliCommand: bundledCliCommand(values.cli) })
      : action === 'uninstall' ? await uninstallGitHooks(git)
      : await gitHooksStatus(git);
    // A hook manager that owns the hooks directory (husky's .husky/_) rewrites it: say so now, not only in doctor.
    const managed = action === 'install' ? await checkGitHooks(git, projectRoot(ctx.cwd)) : null;
    const warnings = managed?.status === 'warn' ? [`${managed.detail}; ${managed.fix}`] : [];
    printReport(values.json === true && action === 'install' ? { ...report, warnings } : report, action!, values.json === true, ctx);
    if (values.json !== true) for (const w of warnings) ctx.stderr(`warning: ${w}\n`);
    return EXIT.OK;
  },
};

function printReport(report: GitHooksReport & { warnings?: string[] }, action: string, json: boolean, ctx: CliContext): void {
  if (json) {
    ctx.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const done = action === 'install' ? 'installed in' : action === 'uninstall' ? 'removed from' : 'hooks directory:';
  ctx.stdout(`${action === 'status' ? done : `git-capsule hooks ${done}`} ${report.hooksDir}\n`);
  for (const h of report.hooks) {
    const what = h.state === 'installed' ? (h.chained ? 'git-capsule (calls your previous hook first)' : 'git-capsule') : h.state === 'foreign' ? 'your own hook' : 'none';
    ctx.stdout(`  ${h.event.padEnd(10)} ${what}\n`);
  }
  ctx.stdout(`  capsule.autoSync ${report.autoSync ? 'true' : 'false (hooks do nothing)'}\n`);
}
