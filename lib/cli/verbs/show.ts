import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { withStore } from '../with-store';

/** `git capsule show <id>`: one capsule's document and its status history. */
export const verb: Verb = {
  name: 'show',
  summary: 'print a capsule (by id or unambiguous prefix) and its status history',
  usage: `usage: git capsule show <id> [--json]

  <id>     a capsule id or an unambiguous prefix of one
  --json   print { "id", "path", "status", "events": [{ "stamp", "writer", "status", "path" }], "text" }`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('show', args, { json: { type: 'boolean' } });
    if (positionals.length !== 1) throw usageError('show', 'expected exactly one <id>');
    return withStore(ctx, async (store) => {
      const record = await store.readCapsule(positionals[0]!);
      if (values.json) {
        ctx.stdout(`${JSON.stringify(record)}\n`);
        return EXIT.OK;
      }
      ctx.stdout(record.text.endsWith('\n') ? record.text : `${record.text}\n`);
      ctx.stdout(`\n# status: ${record.status} (${record.path})\n`);
      for (const e of record.events) ctx.stdout(`#   ${e.stamp}  ${e.status.padEnd(9)}  by ${e.writer}\n`);
      return EXIT.OK;
    });
  },
};
