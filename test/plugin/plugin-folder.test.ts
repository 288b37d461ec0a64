import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tempDir } from '../support/temp-dirs';

const ROOT = join(__dirname, '..', '..');
const PLUGIN = join(ROOT, 'plugin');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

/** Every entry below a folder, relative, links included as themselves. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return lstatSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

// plugin/ is what Claude Code and Codex install (npm run build assembles it: scripts/plugin-folder.mjs).
describe('plugin/, the folder the hosts install', () => {
  const files = walk(PLUGIN).sort();

  it('holds real files only: no symlink (claude plugin validate follows none)', () => {
    expect(files.filter((f) => lstatSync(join(PLUGIN, f)).isSymbolicLink())).toEqual([]);
  });

  it('holds exactly the manifests, hook registrations, skills, bundles, icon, LICENSE and README', () => {
    const hooks = readdirSync(join(ROOT, 'dist', 'hooks')).filter((f) => f.endsWith('.js')).sort();
    expect(files).toEqual(
      [
        '.claude-plugin/plugin.json', '.codex-plugin/plugin.json', 'LICENSE', 'README.md', 'assets/icon.png',
        'dist/git-capsule.js', 'dist/impl/git-capsule.js',
        ...hooks.map((f) => `dist/hooks/${f}`), ...hooks.map((f) => `dist/hooks/impl/${f}`),
        'hooks/codex-hooks.json', 'hooks/hooks.json',
        ...walk(join(ROOT, 'skills')).map((f) => `skills/${f}`),
      ].sort(),
    );
    expect(files).not.toContain('package.json');
  });

  it('is byte for byte what the sources are (npm run build copies them)', () => {
    for (const f of files.filter((x) => x !== 'README.md')) expect({ f, same: readFileSync(join(PLUGIN, f), 'base64') === readFileSync(join(ROOT, f), 'base64') }).toEqual({ f, same: true });
  });

  it('weighs under 3 MB, the cap the build prints against', () => {
    const bytes = files.reduce((n, f) => n + lstatSync(join(PLUGIN, f)).size, 0);
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
  });

  it('is what both marketplaces point at', () => {
    expect(readJson('.claude-plugin/marketplace.json').plugins[0].source).toBe('./plugin');
    expect(readJson('.agents/plugins/marketplace.json').plugins[0].source).toEqual({ source: 'local', path: './plugin' });
  });

  it('carries the MIT license package.json declares, and the manifests say so', () => {
    expect(readJson('package.json').license).toBe('MIT');
    expect(readFileSync(join(PLUGIN, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    for (const m of ['.claude-plugin/plugin.json', '.codex-plugin/plugin.json']) expect(readJson(m).license).toBe('MIT');
  });

  it("gives Codex an icon that exists in the plugin (a PNG)", () => {
    const { composerIcon, logo } = readJson('.codex-plugin/plugin.json').interface;
    for (const icon of [composerIcon, logo]) expect(readFileSync(join(PLUGIN, icon)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('never says the newest capsule is resumed: it is the cleared session\'s own', () => {
    for (const f of ['.claude-plugin/plugin.json', '.codex-plugin/plugin.json', '.claude-plugin/marketplace.json', 'plugin/README.md', 'README.md']) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      expect({ f, newest: /newest (active )?capsule/i.test(text.replace(/capsules newest first/g, '')) }).toEqual({ f, newest: false });
    }
    expect(readJson('.claude-plugin/plugin.json').description).toContain("the cleared session's own capsule");
  });

  it('is rebuilt by the build, which prints its size', () => {
    const out = tempDir('capsule-plugin-build-');
    const text = execFileSync(process.execPath, ['-e', `import('${join(ROOT, 'scripts', 'plugin-folder.mjs')}').then((m) => console.log(JSON.stringify(m.assemblePlugin(${JSON.stringify(ROOT)}, ${JSON.stringify(out)}))))`], { encoding: 'utf8' });
    const { files: n, bytes } = JSON.parse(text);
    expect(n).toBe(files.length - 1);
    expect(bytes).toBeGreaterThan(0);
    expect(readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8')).toMatch(/console\.log\(`plugin\/: \$\{files\} files, /);
  });
});
