import { basename, dirname, join } from 'node:path';
import { runWithCodeCache } from '../launch/code-cache';
import { compileRegExpsOnce } from '../launch/regexp-tier';

/**
 * The start-up path of the heavy hook bundles (`dist/hooks/<event>.js` → `dist/hooks/impl/<event>.js`):
 * runs the real bundle with V8's code cache (lib/launch/code-cache.ts). A missing or broken
 * bundle must not break the session: it exits 0 with a systemMessage.
 */
function launch(): void {
  if (process.env.CAPSULE_DISABLED !== undefined) return; // pass through untouched
  // Stop folds each new turn through the work-state readers' patterns (see regexp-tier.ts); the
  // other hooks mostly follow a Stop and read nothing new (measured: the flag did not pay there).
  if (basename(__filename) === 'stop.js') compileRegExpsOnce();
  runWithCodeCache(join(dirname(__filename), 'impl', basename(__filename)), process.env);
}

try {
  launch();
} catch (err) {
  // A missing or broken bundle must not break the session either: exit 0 and say so.
  const reason = err instanceof Error ? err.message : String(err);
  process.stdout.write(`${JSON.stringify({ systemMessage: `capsule: hook skipped [HOOK_LAUNCH_FAILED] ${reason}`.replace(/\s+/g, ' ').slice(0, 300) })}\n`);
  process.exitCode = 0;
}
