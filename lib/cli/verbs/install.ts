import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CapsuleError } from '../../errors/capsule-error';
import { locateRuntime } from '../../local-state/runtime-dir';
import { findProjectRoot, hookBundleDir, readSettings, settingsPath, SETTINGS_SCOPES, wiredEvents, type SettingsScope } from '../../hosts/claude/settings-file';
import { installSettingsHooks } from '../../hosts/claude/settings-install';
import { installCopilotHooks } from '../../hosts/copilot/hooks-install';
import { excludeLocalFile } from '../../git/info-exclude';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type CliContext, type Verb } from '../context';

/** `git capsule install`: wires the hooks into one Claude Code settings file, editing only the bytes it adds. */
export const verb: Verb = {
  name: 'install',
  summary: 'wire the Claude Code hooks into .claude/settings.local.json (or --project, --user), or print the plugin install commands',
  usage: `usage: git capsule install [--project | --user] [--plugin] [--copilot] [--json]

  (default)  add the six hooks to <project>/.claude/settings.local.json: not committed, so it
             may name this machine's paths
  --project  the shared, committed <project>/.claude/settings.json, with commands that name no
             path of this machine: \${CLAUDE_PROJECT_DIR}/… when git-capsule is inside the project
             (a devDependency), else the git-capsule-hook command on PATH
  --user     \${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json (every project of this user)
  --plugin   change nothing; print how to install git-capsule as a Claude Code plugin instead
  --copilot  the GitHub Copilot CLI instead: ~/.copilot/hooks/git-capsule.json (\$COPILOT_HOME
             when set; every folder), or with --project the committed
             <project>/.github/hooks/git-capsule.json, which Copilot loads only once the user
             trusts the folder. A file of git-capsule's own: other hook files are not touched
  --json     print { "scope", "settings", "added": [events], "commands", "excluded", "warnings" }
             (--copilot: { "scope", "hooks", "written", "events" })

The default adds /.claude/settings.local.json to .git/info/exclude unless git already ignores
it, so 'git add -A' never commits this machine's paths ("excluded": the file edited, or null).

Only the bytes it adds change: the file keeps its formatting and key order, and
'git capsule uninstall' with the same scope puts it back byte for byte. Running it twice adds
nothing. Refused outside a git repository (NOT_A_REPO) and on a settings file that is not JSON
(SETTINGS_INVALID: never overwritten).`,
  async run(args, ctx) {
    const { values } = parseVerbArgs('install', args, { project: { type: 'boolean' }, user: { type: 'boolean' }, plugin: { type: 'boolean' }, copilot: { type: 'boolean' }, json: { type: 'boolean' } }, false);
    const bundleDir = hookBundleDir(ctx.env);
    if (values.plugin) return printPluginRoute(bundleDir, ctx);
    if (values.copilot) {
      const scope = scopeOf(values, 'install') === 'project' ? 'project' : 'user';
      const projectDir = requireProject(ctx.cwd, 'install');
      const result = installCopilotHooks({ scope, projectDir, env: ctx.env, bundleDir, runtimeDir: locateRuntime(ctx.cwd, ctx.env).runtimeDir! });
      if (values.json) ctx.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else {
        ctx.stdout(result.written ? `installed: wrote ${result.hooks} (the GitHub Copilot CLI runs it for ${result.events.length} events)\n` : `already installed: ${result.hooks}\n`);
        if (scope === 'project') ctx.stdout('note: Copilot runs a repository\'s hooks only once you trust the folder (answer "Yes" to its "Confirm folder trust" prompt)\n');
      }
      return EXIT.OK;
    }
    const scope = scopeOf(values, 'install');
    const projectDir = requireProject(ctx.cwd, 'install');
    const runtimeDir = locateRuntime(ctx.cwd, ctx.env).runtimeDir!;
    const result = installSettingsHooks({ scope, projectDir, env: ctx.env, bundleDir, runtimeDir });
    const warnings = otherWiring(scope, projectDir, ctx.env);
    const excluded = scope === 'local' ? excludeLocalFile(projectDir, LOCAL_SETTINGS, ctx.env) : null;
    if (values.json) ctx.stdout(`${JSON.stringify({ ...result, excluded, warnings }, null, 2)}\n`);
    else {
      ctx.stdout(result.added.length === 0 ? `already installed: ${result.settings} has every git-capsule hook\n` : `installed: added ${result.added.join(', ')} to ${result.settings}\n`);
      if (excluded !== null) ctx.stdout(`ignored: added /${LOCAL_SETTINGS} to ${excluded} (it names this machine's paths; git capsule uninstall removes the line)\n`);
      for (const w of warnings) ctx.stdout(`warning: ${w}\n`);
    }
    return EXIT.OK;
  },
};

/** The local settings file, relative to the project's top: what install adds to .git/info/exclude. */
export const LOCAL_SETTINGS = '.claude/settings.local.json';

/** The scope the flags name: local by default; --project and --user exclude each other. */
export function scopeOf(values: { project?: boolean; user?: boolean }, verbName: string): SettingsScope {
  if (values.project && values.user) throw usageError(verbName, '--project and --user exclude each other');
  return values.project ? 'project' : values.user ? 'user' : 'local';
}

/** The project root, or NOT_A_REPO with the reason. */
export function requireProject(cwd: string, verbName: string): string {
  const root = findProjectRoot(cwd);
  if (root !== null) return root;
  throw new CapsuleError(
    'NOT_A_REPO',
    `${cwd} is not inside a git repository: capsules are commits on a branch of the project's own repository, so the hooks would have nowhere to write. Run git capsule ${verbName} from inside the project (or git init it first)`,
    { cwd },
  );
}

/** Other routes that already run the hooks: every hook would run twice. */
function otherWiring(scope: SettingsScope, projectDir: string, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const other of SETTINGS_SCOPES.filter((s) => s !== scope)) {
    let path: string;
    try {
      path = settingsPath(other, { projectDir, env });
      if (wiredEvents(readSettings(path)).length > 0) out.push(`${path} wires the git-capsule hooks too: every hook runs twice; run git capsule uninstall${other === 'local' ? '' : ` --${other}`}`);
      const plugins = readSettings(path).enabledPlugins;
      if (plugins && typeof plugins === 'object' && Object.entries(plugins).some(([id, on]) => id.startsWith('capsule@') && on === true)) {
        out.push(`the capsule plugin is enabled in ${path}: every hook runs twice; use one route (git capsule uninstall, or disable the plugin)`);
      }
    } catch {
      // An unreadable or unknown other file is doctor's to report; install only warns on what it can read.
    }
  }
  return out;
}

function printPluginRoute(bundleDir: string, ctx: CliContext): number {
  const built = bundleDir.replace(/[\\/]dist[\\/]hooks$/, '');
  // From a checkout, the marketplace is the checkout and the plugin its plugin/ folder; from an installed plugin, both are that folder.
  const plugin = existsSync(join(built, 'plugin', '.claude-plugin', 'plugin.json')) ? join(built, 'plugin') : built;
  const root = built;
  ctx.stdout(
    [
      'Install git-capsule as a Claude Code plugin (hooks and skills, no settings edits):',
      `  claude plugin marketplace add ${root}    # or owner/repo on GitHub, or an https:// git URL (a file:// URL is refused)`,
      '  claude plugin install capsule@git-capsule',
      '  (inside Claude Code: /plugin marketplace add …, then /plugin install capsule@git-capsule)',
      `  claude --plugin-dir ${plugin}              # or: this session only, runs in place`,
      'Use either the plugin or `git capsule install`, not both: both would run every hook twice.',
      '',
    ].join('\n'),
  );
  return EXIT.OK;
}
