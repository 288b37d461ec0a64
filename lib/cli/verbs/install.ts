import { parseVerbArgs } from '../args';
import { addCapsuleHooks, hookBundleDir, projectRoot, readSettings, settingsPath, writeSettings } from '../../hosts/claude/settings-file';
import { EXIT, type Verb } from '../context';

/** `git capsule install`: wires the hooks into Claude Code settings, merging, never clobbering. */
export const verb: Verb = {
  name: 'install',
  summary: "wire the Claude Code hooks into .claude/settings.json (or --user), or print the plugin install commands",
  usage: `usage: git capsule install [--user] [--plugin] [--json]

  (default)  add the six hooks to <project>/.claude/settings.json, keeping everything there
  --user     edit ~/.claude/settings.json instead (every project on this machine)
  --plugin   change nothing; print how to install git-capsule as a Claude Code plugin instead
  --json     print { "settings": path, "added": [events] }

Running it twice adds nothing. 'git capsule uninstall' removes exactly what this added.
An unreadable settings file is never overwritten (SETTINGS_INVALID).`,
  async run(args, ctx) {
    const { values } = parseVerbArgs('install', args, { user: { type: 'boolean' }, plugin: { type: 'boolean' }, json: { type: 'boolean' } }, false);
    const bundleDir = hookBundleDir(ctx.env);
    if (values.plugin) {
      const root = bundleDir.replace(/\/dist\/hooks$/, '');
      ctx.stdout(
        [
          'Install git-capsule as a Claude Code plugin (hooks and skills, no settings edits):',
          `  claude --plugin-dir ${root}                     # this session only, runs in place`,
          `  /plugin marketplace add <owner>/<repo>          # then, inside Claude Code:`,
          '  /plugin install capsule@<marketplace>',
          'Use either the plugin or `git capsule install`, not both: both would run every hook twice.',
          '',
        ].join('\n'),
      );
      return EXIT.OK;
    }
    const path = settingsPath({ user: Boolean(values.user), projectDir: projectRoot(ctx.cwd), home: ctx.env.HOME });
    const { settings, added } = addCapsuleHooks(readSettings(path), bundleDir);
    if (added.length > 0) writeSettings(path, settings);
    if (values.json) ctx.stdout(`${JSON.stringify({ settings: path, added }, null, 2)}\n`);
    else if (added.length === 0) ctx.stdout(`already installed: ${path} has every git-capsule hook\n`);
    else ctx.stdout(`installed: added ${added.join(', ')} to ${path}\n`);
    return EXIT.OK;
  },
};
