import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { withStore } from '../with-store';

/** `git capsule reindex`: rebuilds the derived selection index from the capsules. */
export const verb: Verb = {
  name: 'reindex',
  summary: 'rebuild the derived selection index from the capsules themselves',
  usage: `usage: git capsule reindex [--json]

  --json   print { "count", "changed", "commit" }

The index in the memory branch is derived data; this recomputes it (one commit, only when it
differs), e.g. after the branch was merged or edited with plain git.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('reindex', args, { json: { type: 'boolean' } });
    if (positionals.length > 0) throw usageError('reindex', 'takes no arguments');
    return withStore(ctx, async (store) => {
      const result = await store.rebuildIndex({ now: ctx.now() });
      if (values.json) ctx.stdout(`${JSON.stringify(result)}\n`);
      else ctx.stdout(result.changed ? `rebuilt the index of ${result.count} capsules\n` : `the index of ${result.count} capsules is up to date\n`);
      return EXIT.OK;
    });
  },
};
