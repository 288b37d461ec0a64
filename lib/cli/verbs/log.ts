import { LIMIT_OPTION, parseLimit, parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { withStore } from '../with-store';

/** `git capsule log`: the memory branch journal, newest first. */
export const verb: Verb = {
  name: 'log',
  summary: 'the memory branch journal, newest first (one line per operation)',
  usage: `usage: git capsule log [-n | --limit N] [--json]

  -n, --limit  at most N commits (1 or more)
  --json       print an array of { "commit", "date", "subject", "trailers" }

The same history as 'git log capsules'; trailers carry Capsule-Id, Capsule-Op, Capsule-Status, …`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('log', args, { ...LIMIT_OPTION, json: { type: 'boolean' } });
    if (positionals.length > 0) throw usageError('log', 'takes no positional arguments');
    const limit = parseLimit('log', values.limit);
    return withStore(ctx, async (store) => {
      const entries = await store.log({ limit });
      if (values.json) ctx.stdout(`${JSON.stringify(entries)}\n`);
      else for (const e of entries) ctx.stdout(`${e.commit.slice(0, 12)}  ${e.date}  ${e.subject}\n`);
      return EXIT.OK;
    });
  },
};
