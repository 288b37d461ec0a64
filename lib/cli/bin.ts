// Bundled to dist/impl/git-capsule.js (scripts/build.mjs); dist/git-capsule.js starts it through lib/cli/launcher.ts.
import { EXIT } from './context';
import { main, processContext } from './main';

// `git capsule show <id> | head`: the reader went away. Stop quietly, as git does on SIGPIPE,
// instead of an unhandled EPIPE stack trace; any other stream error is still raised.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(EXIT.OK);
});

main(process.argv.slice(2), processContext()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`git capsule: [INTERNAL] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT.FAILURE;
  },
);
