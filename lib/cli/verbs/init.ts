import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { withStore } from '../with-store';

/** `git capsule init`: creates the memory branch at the deterministic root commit. */
export const verb: Verb = {
  name: 'init',
  summary: 'create the memory branch (deterministic root commit; writes also create it)',
  usage: `usage: git capsule init [--json]

  --json   print { "ref", "root", "created" }

Creates the memory ref (git config capsule.ref, default refs/heads/capsules) at a root commit
that is identical in every clone. Safe to run again; the first write also creates it.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('init', args, { json: { type: 'boolean' } });
    if (positionals.length > 0) throw usageError('init', 'takes no arguments');
    return withStore(ctx, async (store) => {
      const { root, created } = await store.init();
      if (values.json) ctx.stdout(`${JSON.stringify({ ref: store.ref, root, created })}\n`);
      else ctx.stdout(created ? `created ${store.ref} at root ${root}\n` : `${store.ref} already exists (root ${root})\n`);
      return EXIT.OK;
    });
  },
};
