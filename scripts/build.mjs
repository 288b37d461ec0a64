// Bundles the CLI and every hook entry into single files under dist/, so an installed plugin
// needs no node_modules. Add an entry here when you add a hook (see CONTRIBUTING.md).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';

import { VALIDATORS, generate } from './gen-validators.mjs';
import { writeFileSync } from 'node:fs';

for (const v of VALIDATORS) writeFileSync(v.out, generate(v));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const entries = [
  { in: 'lib/cli/main.ts', out: 'dist/git-capsule.js' },
];

mkdirSync('dist', { recursive: true });
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
    }),
  ),
);
for (const e of entries) chmodSync(e.out, 0o755);
