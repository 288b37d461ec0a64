import { isStatus } from '../../store/status-lattice';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { withStore } from '../with-store';

/** `git capsule status <id> <status>`: records a status event; never backwards. */
export const verb: Verb = {
  name: 'status',
  summary: 'set a capsule\'s status (active < paused < resumed < abandoned < resolved; never backwards)',
  usage: `usage: git capsule status <id> <status> [--writer NAME] [--json]

  <id>       a capsule id or an unambiguous prefix of one
  <status>   paused, resumed, abandoned or resolved (a status never moves backwards)
  --writer   who records it (default: cli)
  --json     print { "id", "status", "commit", "changed" }

Refused with STATUS_BACKWARD when the capsule already has a later status: continue the work
in a new capsule whose parent_capsule_id names the old one.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('status', args, { writer: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals.length !== 2) throw usageError('status', 'expected <id> <status>');
    const [id, status] = positionals as [string, string];
    if (!isStatus(status)) throw usageError('status', `${status} is not one of active, paused, resumed, abandoned, resolved`);
    return withStore(ctx, async (store) => {
      const result = await store.setStatus(id, status, { writer: values.writer ?? 'cli', now: ctx.now() });
      // The full id, whatever prefix was typed: the user copies it from here.
      if (values.json) ctx.stdout(`${JSON.stringify(result)}\n`);
      else ctx.stdout(result.changed ? `${result.id}: ${result.status}\n` : `${result.id}: already ${result.status}, nothing written\n`);
      return EXIT.OK;
    });
  },
};
