import { existsSync } from 'node:fs';
import { parseVerbArgs } from '../args';
import { projectRoot, readSettings, removeCapsuleHooks, settingsPath, writeSettings } from '../../hosts/claude/settings-file';
import { EXIT, type Verb } from '../context';

/** `git capsule uninstall`: removes exactly the hook commands install added. */
export const verb: Verb = {
  name: 'uninstall',
  summary: 'remove the hooks git capsule install added (nothing else)',
  usage: `usage: git capsule uninstall [--user] [--json]

  (default)  edit <project>/.claude/settings.json
  --user     edit ~/.claude/settings.json
  --json     print { "settings": path, "removed": count }

Only commands carrying install's marker are removed; groups and events left empty go too.`,
  async run(args, ctx) {
    const { values } = parseVerbArgs('uninstall', args, { user: { type: 'boolean' }, json: { type: 'boolean' } }, false);
    const path = settingsPath({ user: Boolean(values.user), projectDir: projectRoot(ctx.cwd), home: ctx.env.HOME });
    const { settings, removed } = existsSync(path) ? removeCapsuleHooks(readSettings(path)) : { settings: {}, removed: 0 };
    if (removed > 0) writeSettings(path, settings);
    if (values.json) ctx.stdout(`${JSON.stringify({ settings: path, removed }, null, 2)}\n`);
    else ctx.stdout(removed > 0 ? `uninstalled: removed ${removed} hook command(s) from ${path}\n` : `nothing to remove: ${path} has no git-capsule hooks\n`);
    return EXIT.OK;
  },
};
