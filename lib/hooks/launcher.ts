import { basename, dirname, join } from 'node:path';
import { runWithCodeCache } from '../launch/code-cache';
import { takenCodePaths } from './code-path';

/**
 * The start-up path of the heavy hook bundles (`dist/hooks/<event>.js` → `dist/hooks/impl/<event>.js`):
 * runs the real bundle with V8's code cache (lib/launch/code-cache.ts). A missing or broken
 * bundle must not break the session: it exits 0 with a systemMessage.
 */
function launch(): void {
  if (process.env.CAPSULE_DISABLED !== undefined) return; // pass through untouched
  // No `--no-regexp-tier-up` for Stop any more: it paid (~8 ms) while the readers compiled word
  // lists of a hundred verbs; with the lists in sets and each pattern run only on text holding its
  // words, loading node:v8 to set it cost more than it saved (node CPU 127 -> 123, 133 -> 127,
  // 132 -> 129 ms without it, three A/B passes of 21-31 runs, 2026-12-01, load 1.6-1.9).
  // The paths the bundle took (lib/hooks/code-path.ts) decide whether its cache is written anew.
  runWithCodeCache(join(dirname(__filename), 'impl', basename(__filename)), process.env, undefined, takenCodePaths);
}

try {
  launch();
} catch (err) {
  // A missing or broken bundle must not break the session either: exit 0 and say so.
  const reason = err instanceof Error ? err.message : String(err);
  process.stdout.write(`${JSON.stringify({ systemMessage: `capsule: hook skipped [HOOK_LAUNCH_FAILED] ${reason}`.replace(/\s+/g, ' ').slice(0, 300) })}\n`);
  process.exitCode = 0;
}
