// Assembles plugin/: exactly what Claude Code and Codex load from an installed plugin, as real
// files (no symlinks: `claude plugin validate` follows none), so both marketplaces can point at
// it and a host copies nothing else into its cache. plugin/README.md is the one file written by
// hand there; everything else is copied from the sources below on every `npm run build`.
import { cpSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What the plugin holds, as [source, path inside plugin/]. */
export const PLUGIN_PARTS = [
  ['.claude-plugin/plugin.json', '.claude-plugin/plugin.json'],
  ['.codex-plugin/plugin.json', '.codex-plugin/plugin.json'],
  ['hooks/hooks.json', 'hooks/hooks.json'],
  ['hooks/codex-hooks.json', 'hooks/codex-hooks.json'],
  ['skills', 'skills'],
  ['LICENSE', 'LICENSE'],
  ['assets/icon.png', 'assets/icon.png'],
  // The bundles: the CLI (the skills run it) and one per hook event, each behind its launcher.
  ['dist/git-capsule.js', 'dist/git-capsule.js'],
  ['dist/impl/git-capsule.js', 'dist/impl/git-capsule.js'],
  ['dist/hooks', 'dist/hooks'],
];
/** Written by hand in plugin/, kept by the build. */
export const PLUGIN_OWN_FILES = ['README.md'];
/** The most plugin/ may weigh (bytes); test/plugin/plugin-folder.test.ts holds the build to it. */
export const PLUGIN_MAX_BYTES = 3 * 1024 * 1024;

/** Rebuilds `pluginDir` from the sources under `root`; returns its file count and size. */
export function assemblePlugin(root, pluginDir) {
  mkdirSync(pluginDir, { recursive: true });
  for (const name of readdirSync(pluginDir)) if (!PLUGIN_OWN_FILES.includes(name)) rmSync(join(pluginDir, name), { recursive: true, force: true });
  for (const [from, to] of PLUGIN_PARTS) {
    mkdirSync(dirname(join(pluginDir, to)), { recursive: true });
    // Copies what a link points at, never the link; only the bundles of dist/hooks (no stray files).
    cpSync(join(root, from), join(pluginDir, to), { recursive: true, dereference: true, filter: (src) => !src.includes(`${join('dist', 'hooks')}`) || lstatSync(src).isDirectory() || src.endsWith('.js') });
  }
  return measure(pluginDir);
}

/** Files and bytes below a folder. */
export function measure(dir) {
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isDirectory()) {
      const sub = measure(path);
      files += sub.files;
      bytes += sub.bytes;
    } else {
      files += 1;
      bytes += st.size;
    }
  }
  return { files, bytes };
}
