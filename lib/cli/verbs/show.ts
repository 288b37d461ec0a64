import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { withStore } from '../with-store';
import { provenanceLine, provenanceOf } from '../../store/provenance';

/** `git capsule show <id>`: one capsule's document and its status history. */
export const verb: Verb = {
  name: 'show',
  summary: 'print a capsule (by id or unambiguous prefix) and its status history',
  usage: `usage: git capsule show <id> [--json]

  <id>     a capsule id or an unambiguous prefix of one
  --json   print { "id", "path", "status", "events": [{ "stamp", "writer", "status", "path" }], "text",
           "provenance": { "sealedHere", "signature": { "verified", "status", "signer", "commit" } | null } }

A capsule this clone wrote carries its seal ("sealed by this clone"); any other is shown as
verified when git's own check of the commit that brought it in passes (a signed publish, and its
signer in gpg.ssh.allowedSignersFile or your gpg keyring), else as unverified.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('show', args, { json: { type: 'boolean' } });
    if (positionals.length !== 1) throw usageError('show', 'expected exactly one <id>');
    return withStore(ctx, async (store) => {
      const record = await store.readCapsule(positionals[0]!);
      // A teammate's capsule: git's own signature check of the commit that brought this version in.
      const provenance = (await provenanceOf(store, [record])).get(record.path)!;
      if (values.json) {
        ctx.stdout(`${JSON.stringify({ ...record, provenance })}\n`);
        return EXIT.OK;
      }
      ctx.stdout(record.text.endsWith('\n') ? record.text : `${record.text}\n`);
      ctx.stdout(`\n# status: ${record.status} (${record.path})\n`);
      for (const e of record.events) ctx.stdout(`#   ${e.stamp}  ${e.status.padEnd(9)}  by ${e.writer}\n`);
      ctx.stdout(`# ${provenanceLine(provenance)}\n`);
      return EXIT.OK;
    });
  },
};
