// Bundles a TypeScript module of this repository with esbuild and loads it, so the .mjs benches
// share code with lib/ and test/ instead of copying it: bench/lib/memory-fixture.ts builds
// fixtures in whatever layout main has, test/e2e/claude-client.ts finds the real client.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The exports of `path` (relative to the repository root), bundled to .bench-tmp/<name>.cjs.
 * `__dirname` means `dirnameOf` (default: the folder of `path`) in every bundled module.
 */
export async function loadTs(path, dirnameOf = dirname(path)) {
  const out = join(ROOT, '.bench-tmp', `${basename(path, '.ts')}.cjs`);
  mkdirSync(join(ROOT, '.bench-tmp'), { recursive: true });
  // __dirname keeps meaning the source's folder (test/e2e/claude-client.ts finds the repository by it).
  const define = { __dirname: JSON.stringify(join(ROOT, dirnameOf)) };
  await build({ entryPoints: [join(ROOT, path)], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'cjs', define, logLevel: 'error' });
  return createRequire(import.meta.url)(out);
}

/** `{ buildMemoryFixture, fixtureUlid }` of bench/lib/memory-fixture.ts. */
export function loadFixtureBuilder() {
  return loadTs('bench/lib/memory-fixture.ts');
}
