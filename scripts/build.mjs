// Bundles the CLI and every hook entry into single files under dist/, so an installed plugin
// needs no node_modules. Add an entry here when you add a hook (see CONTRIBUTING.md).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { VALIDATORS, generate } from './gen-validators.mjs';
import { writeFileSync } from 'node:fs';

for (const v of VALIDATORS) writeFileSync(v.out, generate(v));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

// `--outdir DIR` builds elsewhere (test/plugin/dist-bundles.test.ts compares a fresh build with the committed dist/).
const outFlag = process.argv.indexOf('--outdir');
const outDir = outFlag === -1 ? 'dist' : process.argv[outFlag + 1];

const entries = [
  { in: 'lib/cli/main.ts', out: 'git-capsule.js' },
  // Hook bundles: one per host event, run by hooks/hooks.json as node "${CLAUDE_PLUGIN_ROOT}/dist/hooks/<event>.js".
  // The heavy ones start through a small launcher that keeps V8's code cache (lib/hooks/launcher.ts);
  // UserPromptSubmit is small enough to load directly.
  ...['session-start', 'stop', 'pre-compact', 'session-end'].flatMap((event) => [
    { in: 'lib/hooks/launcher.ts', out: `hooks/${event}.js` },
    { in: `lib/hooks/entry-${event}.ts`, out: `hooks/impl/${event}.js` },
  ]),
  { in: 'lib/hooks/entry-user-prompt-submit.ts', out: 'hooks/user-prompt-submit.js' },
].map((e) => ({ in: e.in, out: join(outDir, e.out) }));

mkdirSync(join(outDir, 'hooks', 'impl'), { recursive: true });
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
      // Hook bundles start on every prompt and turn: minified, they parse measurably faster.
      minify: e.out.includes(`${join(outDir, 'hooks')}`),
    }),
  ),
);
for (const e of entries) chmodSync(e.out, 0o755);
