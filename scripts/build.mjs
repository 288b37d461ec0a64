// Bundles the CLI and every hook entry into single files under dist/, so an installed plugin
// needs no node_modules. Add an entry here when you add a hook (see CONTRIBUTING.md).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';

import { VALIDATORS, generate } from './gen-validators.mjs';
import { assemblePlugin, PLUGIN_MAX_BYTES } from './plugin-folder.mjs';
import { writeFileSync } from 'node:fs';

for (const v of VALIDATORS) writeFileSync(v.out, generate(v));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

// `--outdir DIR` builds elsewhere (test/plugin/dist-bundles.test.ts compares a fresh build with the committed dist/).
const outFlag = process.argv.indexOf('--outdir');
const outDir = outFlag === -1 ? 'dist' : process.argv[outFlag + 1];
// `--mandir DIR` writes the man page elsewhere; a build into another --outdir writes none unless asked.
const manFlag = process.argv.indexOf('--mandir');
const manDir = manFlag !== -1 ? process.argv[manFlag + 1] : outFlag === -1 ? 'man' : null;

const entries = [
  // The CLI starts through a small launcher that keeps V8's code cache (lib/cli/launcher.ts).
  { in: 'lib/cli/launcher.ts', out: 'git-capsule.js' },
  { in: 'lib/cli/bin.ts', out: 'impl/git-capsule.js' },
  // Hook bundles: one per host event, run by hooks/hooks.json as node "${CLAUDE_PLUGIN_ROOT}/dist/hooks/<event>.js".
  // Each starts through a small launcher that keeps V8's code cache (lib/hooks/launcher.ts); even
  // UserPromptSubmit's ~80 KB pays more to compile than the launcher costs (docs/performance.md).
  ...['session-start', 'stop', 'pre-compact', 'post-compact', 'session-end', 'user-prompt-submit'].flatMap((event) => [
    { in: 'lib/hooks/launcher.ts', out: `hooks/${event}.js` },
    { in: `lib/hooks/entry-${event}.ts`, out: `hooks/impl/${event}.js` },
  ]),
].map((e) => ({ in: e.in, out: join(outDir, e.out) }));

mkdirSync(join(outDir, 'hooks', 'impl'), { recursive: true });
mkdirSync(join(outDir, 'impl'), { recursive: true });
await Promise.all(
  entries.map((e) =>
    build({
      entryPoints: [e.in],
      outfile: e.out,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      banner: { js: '#!/usr/bin/env node' },
      legalComments: 'none',
      logLevel: 'warning',
      define: { __VERSION__: JSON.stringify(pkg.version) },
      // import() becomes require(): the launchers run bundles as vm.Script, where node 20 has no dynamic import.
      supported: { 'dynamic-import': false },
      // Hook bundles start on every prompt and turn, the CLI on every hook's git call: minified, they parse measurably faster.
      minify: e.out.includes(`${join(outDir, 'hooks')}`) || e.out.includes(`${join(outDir, 'impl')}`),
    }),
  ),
);
// esbuild escapes non-ASCII characters in strings and templates but leaves them in regular
// expression literals (→, …, ✗, emoji in the work-state and budget patterns). One such character
// makes the whole bundle a two-byte string: reading it as UTF-8 and handing it to V8 cost ~1.5 ms
// more per hook start (measured on session-start, 2026-12-01). A \u escape means the same in a
// regular expression, with or without the u flag (an astral character becomes its surrogate
// pair, which u-mode reads as the one code point).
for (const e of entries) {
  const text = readFileSync(e.out, 'utf8');
  if (/[^\x00-\x7f]/.test(text)) writeFileSync(e.out, text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
// The bundles behind a launcher carry their own hash, so the launcher can key V8's code cache
// without hashing ~500 KB on every start (lib/launch/code-cache.ts).
for (const e of entries.filter((x) => x.out.includes(`${sep}impl${sep}`))) {
  const text = readFileSync(e.out, 'utf8');
  const hash = createHash('sha1').update(text).digest('hex').slice(0, 20);
  writeFileSync(e.out, text.replace(/^(#!.*\n)/, `$1// capsule-bundle-hash: ${hash}\n`));
}
for (const e of entries) chmodSync(e.out, 0o755);

// man/man1/git-capsule.1, rendered from the verbs' own help texts (lib/cli/man-page.ts): git turns
// `git capsule --help` into `man git-capsule`, which finds it beside bin/ on PATH or where npm links it.
if (manDir !== null) {
  const bundled = await build({
    entryPoints: ['lib/cli/man-page.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
    supported: { 'dynamic-import': false },
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', bundled.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
  const page = join(manDir, 'man1', 'git-capsule.1');
  mkdirSync(dirname(page), { recursive: true });
  writeFileSync(page, await mod.exports.renderManPage(pkg.version));
}

// plugin/: what a host installs (scripts/plugin-folder.mjs), rebuilt with the default dist/ and its size said.
if (outFlag === -1) {
  const { files, bytes } = assemblePlugin('.', 'plugin');
  const over = bytes > PLUGIN_MAX_BYTES ? ` — over the ${(PLUGIN_MAX_BYTES / 1048576).toFixed(1)} MB cap` : '';
  console.log(`plugin/: ${files} files, ${(bytes / 1048576).toFixed(2)} MB${over}`);
}
