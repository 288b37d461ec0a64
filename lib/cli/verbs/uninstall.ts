import { locateRuntime } from '../../local-state/runtime-dir';
import { uninstallSettingsHooks } from '../../hosts/claude/settings-install';
import { uninstallCopilotHooks } from '../../hosts/copilot/hooks-install';
import { parseVerbArgs } from '../args';
import { EXIT, type Verb } from '../context';
import { LOCAL_SETTINGS, requireProject, scopeOf } from './install';
import { unexcludeLocalFile } from '../../git/info-exclude';

/** `git capsule uninstall`: removes exactly the hook commands install added, restoring the file byte for byte when it can. */
export const verb: Verb = {
  name: 'uninstall',
  summary: 'remove the hooks git capsule install added (nothing else)',
  usage: `usage: git capsule uninstall [--project | --user] [--copilot] [--json]

  (default)  edit <project>/.claude/settings.local.json
  --project  edit <project>/.claude/settings.json
  --user     edit \${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json
  --copilot  remove the GitHub Copilot CLI's git-capsule.json (user level, or --project's
             .github/hooks/): as install left it, what was there before comes back
  --json     print { "settings": path, "removed": count, "restored": "exact"|"cut"|"nothing",
             "unexcluded": the .git/info/exclude edited, or null }

The default also removes the /.claude/settings.local.json line install added to .git/info/exclude.

A file still as install left it gets back exactly what it was ("exact"; one install created is
deleted). One edited since keeps every byte but the capsule commands and the groups, events and
"hooks" they leave empty ("cut").`,
  async run(args, ctx) {
    const { values } = parseVerbArgs('uninstall', args, { project: { type: 'boolean' }, user: { type: 'boolean' }, copilot: { type: 'boolean' }, json: { type: 'boolean' } }, false);
    const scope = scopeOf(values, 'uninstall');
    if (values.copilot) {
      const result = uninstallCopilotHooks({ scope: scope === 'project' ? 'project' : 'user', projectDir: requireProject(ctx.cwd, 'uninstall'), env: ctx.env, runtimeDir: locateRuntime(ctx.cwd, ctx.env).runtimeDir });
      if (values.json) ctx.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.restored === 'nothing') ctx.stdout(`nothing to remove: no ${result.hooks}\n`);
      else if (result.restored === 'edited') ctx.stdout(`left alone: ${result.hooks} was edited since install and runs more than git-capsule's hooks\n`);
      else ctx.stdout(`uninstalled: ${result.restored === 'exact' ? 'restored' : 'removed'} ${result.hooks}\n`);
      return EXIT.OK;
    }
    const projectDir = requireProject(ctx.cwd, 'uninstall');
    const result = uninstallSettingsHooks({ scope, projectDir, env: ctx.env, runtimeDir: locateRuntime(ctx.cwd, ctx.env).runtimeDir });
    const unexcluded = scope === 'local' ? unexcludeLocalFile(projectDir, LOCAL_SETTINGS, ctx.env) : null;
    if (unexcluded !== null && !values.json) ctx.stdout(`removed /${LOCAL_SETTINGS} from ${unexcluded} (install added it)\n`);
    if (values.json) ctx.stdout(`${JSON.stringify({ ...result, unexcluded }, null, 2)}\n`);
    else if (result.removed === 0) ctx.stdout(`nothing to remove: ${result.settings} has no git-capsule hooks\n`);
    else ctx.stdout(`uninstalled: removed ${result.removed} hook command(s) from ${result.settings}${result.restored === 'exact' ? ' (restored as it was before install)' : ''}\n`);
    return EXIT.OK;
  },
};
