// Bundles the TypeScript benchmark (bench/continuity/main.ts) with esbuild and runs it, passing
// the arguments through: `npm run bench:continuity -- --only objective-drift --reset clear`.
// The bundle lives two folders below the repository root (.bench-tmp/continuity/), so the
// helpers that find the repository from __dirname find it from there.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const outfile = join('.bench-tmp', 'continuity', 'main.js');
await build({ entryPoints: ['bench/continuity/main.ts'], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
const run = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
