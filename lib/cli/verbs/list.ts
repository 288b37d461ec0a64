import type { CapsuleStatus } from '../../capsule/types';
import { isStatus } from '../../store/status-lattice';
import { LIMIT_OPTION, parseLimit, parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';
import { formatAge, withStore } from '../with-store';
import { formatTable, paint } from '../colour';
import { createGitRunner } from '../../git/git-runner';
import { remoteMemoryStates } from '../../sync/remote-memory';
import type { IndexEntry, MemoryStore } from '../../store/types';
import { provenanceOf, provenanceWord, type Provenance } from '../../store/provenance';

/** Asked only when nothing is listed, so a full list never waits on the network. */
const REMOTE_HINT_TIMEOUT_MS = 3000;

/** One line per remote whose memory ref holds capsules this clone has not merged: how to get them. */
async function remoteHints(store: MemoryStore, env: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    const states = await remoteMemoryStates(createGitRunner({ cwd: store.repoDir, env }), store.ref, REMOTE_HINT_TIMEOUT_MS);
    return states.filter((s) => s.state === 'unfetched').map((s) => `${s.remote} has capsules (${s.ref}) this clone has not fetched: run git capsule sync ${s.remote}`);
  } catch {
    return []; // a hint, never a failure of list
  }
}

/**
 * The provenance of each listed capsule (store/provenance.ts): one batch read of the listed
 * documents for their seals, one `git log` for the signatures of the rest.
 */
async function listedProvenance(store: MemoryStore, entries: readonly IndexEntry[]): Promise<Map<string, Provenance>> {
  if (entries.length === 0) return new Map();
  const texts = await store.readTexts(entries.map((e) => e.id));
  return provenanceOf(store, entries.map((e) => ({ path: e.path, text: texts.get(e.id) ?? null })));
}


/** `git capsule list`: capsules newest first from the derived index (no capsule is read). */
export const verb: Verb = {
  name: 'list',
  summary: 'list capsules newest first: id, status, age, provenance, trigger, objective',
  usage: `usage: git capsule list [--status S[,S…]] [-n | --limit N] [--json]

  --status     only these derived statuses (active, paused, resumed, abandoned, resolved)
  -n, --limit  at most N capsules (1 or more)
  --json       print an array of { "id", "status", "created_at", "trigger", "objective",
               "provenance": { "sealedHere", "signature": { "verified", "status", "signer", "commit" } | null } }

Reads the derived selection index in the memory branch's tip; 'list --status active --limit 1'
is the newest active capsule. Provenance, as git capsule show prints it: "sealed" for a capsule
this clone wrote (its seal), else "verified" when git's own check of the commit that brought it
in passes (a signed publish, its signer in gpg.ssh.allowedSignersFile or your gpg keyring),
else "unverified"; --json and show name the signer. It costs one batch read of the listed
documents and one git log.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('list', args, { status: { type: 'string', multiple: true }, ...LIMIT_OPTION, json: { type: 'boolean' } });
    if (positionals.length > 0) throw usageError('list', 'takes no positional arguments');
    const statuses = values.status?.flatMap((s) => s.split(',')).map((s) => s.trim());
    const bad = statuses?.find((s) => !isStatus(s));
    if (bad !== undefined) throw usageError('list', `--status ${bad} is not one of active, paused, resumed, abandoned, resolved`);
    const limit = parseLimit('list', values.limit);
    return withStore(ctx, async (store) => {
      const entries = await store.listIndex({ status: statuses as CapsuleStatus[] | undefined, limit });
      const provenance = await listedProvenance(store, entries);
      if (values.json) {
        const rows = entries.map((e) => ({ id: e.id, status: e.status, created_at: e.createdAt, trigger: e.trigger ?? null, objective: e.objective ?? null, provenance: provenance.get(e.path) ?? null }));
        ctx.stdout(`${JSON.stringify(rows)}\n`);
        return EXIT.OK;
      }
      if (entries.length === 0) {
        ctx.stdout(`no capsules on ${store.ref}${statuses ? ` with status ${statuses.join(',')}` : ''}\n`);
        for (const hint of await remoteHints(store, ctx.env)) ctx.stdout(`${hint}\n`);
      }
      const now = ctx.now();
      const tone = (status: string) => (status === 'active' ? 'ok' : status === 'paused' ? 'warn' : 'dim');
      ctx.stdout(formatTable(entries.map((e) => [paint('id', e.id), paint(tone(e.status), e.status), formatAge(e.createdAt, now), provenance.has(e.path) ? provenanceWord(provenance.get(e.path)!) : 'unverified', e.trigger ?? '-', e.objective ?? '']), { right: [2] }));
      return EXIT.OK;
    });
  },
};
