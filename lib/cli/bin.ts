// Bundled to dist/impl/git-capsule.js (scripts/build.mjs); dist/git-capsule.js starts it through lib/cli/launcher.ts.
import { EXIT } from './context';
import { main, processContext } from './main';

main(process.argv.slice(2), processContext()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`git capsule: [INTERNAL] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT.FAILURE;
  },
);
