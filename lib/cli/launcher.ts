import { join } from 'node:path';
import { runWithCodeCache } from '../launch/code-cache';

/**
 * The CLI's start-up path (`dist/git-capsule.js` → `dist/impl/git-capsule.js`, built from
 * lib/cli/bin.ts): runs the real bundle with V8's code cache, so a verb that never renders YAML
 * does not compile the YAML library, and one that does compiles it from the cache.
 */
// One cache per verb: the cache holds what the run that wrote it compiled, and `list` after an
// `init` would otherwise compile its own functions on every start (~3 ms).
const verb = process.argv[2];
try {
  runWithCodeCache(join(__dirname, 'impl', 'git-capsule.js'), process.env, verb !== undefined && /^[a-z][a-z-]{0,30}$/.test(verb) ? verb : undefined);
} catch (err) {
  process.stderr.write(`git capsule: [INTERNAL] cannot load ${join(__dirname, 'impl', 'git-capsule.js')}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
