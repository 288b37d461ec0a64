import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookCommand, portablePath } from '../../lib/hosts/claude/settings-file';

const ROOT = join(__dirname, '..', '..');

/** Every command string a registrations file names. */
function commands(file: string): string[] {
  const hooks = JSON.parse(readFileSync(join(ROOT, file), 'utf8')).hooks as Record<string, { hooks: { command: string }[] }[]>;
  return Object.values(hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
}

/**
 * `node "<path>"` and plain flags, nothing a shell interprets but the quotes: the same program
 * and arguments under sh (Linux, macOS), Git Bash and PowerShell (Claude Code on Windows) and
 * cmd (Codex on Windows), which is why no `commandWindows` variant is registered. The one
 * `${…}` is the host's own placeholder, substituted in the text before any shell sees it.
 */
const SHELL_NEUTRAL = /^node "\$\{(CLAUDE_PLUGIN_ROOT|PLUGIN_ROOT)\}\/dist\/hooks\/[a-z-]+\.js"( --[a-z-]+( [a-z]+)?)*$/;

describe('hook registrations run the same under every shell a host uses', () => {
  it.each(['hooks/hooks.json', 'hooks/codex-hooks.json', 'plugin/hooks/hooks.json', 'plugin/hooks/codex-hooks.json'])('%s names only node, a quoted bundle path and plain flags', (file) => {
    const all = commands(file);
    expect(all.length).toBeGreaterThanOrEqual(5);
    for (const command of all) expect(command).toMatch(SHELL_NEUTRAL);
  });

  it('a local or user install on Windows names the bundle with forward slashes, which Git Bash, PowerShell and cmd read alike', () => {
    const command = hookCommand('user', 'Stop', { bundleDir: 'C:\\Users\\ana\\git-capsule\\dist\\hooks', projectDir: 'C:\\work\\app', platform: 'win32' });
    expect(command).toBe('node "C:/Users/ana/git-capsule/dist/hooks/stop.js" --capsule-hook');
  });

  it('elsewhere a backslash is a file-name character and stays', () => {
    expect(portablePath('/home/ana/odd\\name/stop.js', 'linux')).toBe('/home/ana/odd\\name/stop.js');
    expect(hookCommand('local', 'Stop', { bundleDir: '/opt/gc/dist/hooks', projectDir: '/work/app', platform: 'darwin' })).toBe('node "/opt/gc/dist/hooks/stop.js" --capsule-hook');
  });
});
