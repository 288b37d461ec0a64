import { CapsuleError } from '../errors/capsule-error';
import type { StoreObjectReader } from '../git/cat-file-batch';
import type { GitRunner } from '../git/git-runner';
import { parseTree, type TreeEntry } from '../git/git-tree';
import { MAX_CAPSULE_BYTES } from '../capsule/limits';
import { DAY_NAME, DAY_OF_MONTH_NAME, FORMAT_MAGIC, FORMAT_PATH, MONTH_NAME, YEAR_NAME, formatVersion, isSafeId } from './memory-format';
import { parseEventName, sortEvents } from './status-events';
import type { StatusEvent } from './types';

const DOCUMENT_NAME = '/capsule.md';
/** One byte over the bound: the parser then refuses the document by name (TOO_LARGE). */
export const DOCUMENT_READ = { maxBytes: MAX_CAPSULE_BYTES + 1 } as const;

/** Reads the memory tree through the store's object reader (the git files, or one `cat-file --batch`). */
export class MemoryTree {
  /** `git` is used only when the ref reads as missing, to tell an absent ref from a broken one. */
  constructor(private readonly batch: StoreObjectReader, readonly ref: string, private readonly git?: GitRunner) {}

  /**
   * The memory ref's commit, or null when the ref does not exist. A ref that exists but is
   * not a commit, or whose tree has no git-capsule FORMAT file (e.g. `capsule.ref` naming a
   * code branch), throws MEMORY_ROOT rather than being written into. A ref whose object is
   * gone, whose file is garbage, or whose commit has no readable tree throws MEMORY_UNREADABLE.
   */
  async tip(racesLeft = 3): Promise<string | null> {
    // Both asked at once (one round trip): FORMAT never changes, so reading it through the ref
    // name is as good as through the commit, even if the ref moves in between.
    const [head, format] = await Promise.all([this.batch.read(this.ref), this.batch.read(`${this.ref}:${FORMAT_PATH}`)]);
    if (head === null) {
      // A concurrent writer may create the ref between the two reads: read it again.
      if ((await this.refuseBrokenRef()) === 'appeared' && racesLeft > 0) return this.tip(racesLeft - 1);
      return null;
    }
    if (head.type !== 'commit') {
      throw new CapsuleError('MEMORY_ROOT', `MEMORY-ROOT: ${this.ref} points at a ${head.type}, not a commit; point it at the memory branch or set git config capsule.ref to another ref`, { ref: this.ref, type: head.type });
    }
    if (format === null && (await this.batch.read(`${head.oid}^{tree}`)) === null) {
      throw unreadable(this.ref, `its tip ${head.oid.slice(0, 12)} has no readable tree`, { commit: head.oid });
    }
    if (format === null || format.type !== 'blob' || !format.content.toString('utf8').startsWith(FORMAT_MAGIC)) {
      throw new CapsuleError('MEMORY_ROOT', `MEMORY-ROOT: ${this.ref} exists but is not a git-capsule memory branch (no ${FORMAT_PATH} file at ${head.oid.slice(0, 12)}); choose another ref with git config capsule.ref`, { ref: this.ref, commit: head.oid });
    }
    return head.oid;
  }

  /**
   * cat-file says "missing" both for an absent ref and for a ref whose object is gone or whose
   * file holds garbage; only the first may be created over. for-each-ref prints the object id of
   * a dangling ref and warns on stderr about a broken one (one extra git call, only when the
   * branch reads as absent). Throws MEMORY_UNREADABLE.
   */
  private async refuseBrokenRef(): Promise<'absent' | 'appeared'> {
    if (this.git === undefined) return 'absent';
    const out = await this.git.run(['for-each-ref', '--format=%(objectname)', this.ref], { okExitCodes: [0, 1] });
    const oid = out.stdout.trim();
    if (oid !== '') {
      // Present now: either another writer created the ref after our first read (its objects
      // are there; cat-file rescans packs on a miss), or the object really is gone.
      if ((await this.batch.read(oid)) !== null) return 'appeared';
      throw unreadable(this.ref, `it points at ${oid.slice(0, 12)}, an object this repository does not have`, { oid });
    }
    if (out.stderr.trim() !== '') throw unreadable(this.ref, 'its ref file does not hold an object id', { stderr: out.stderr.trim() });
    return 'absent';
  }

  /** The entries of a tree at `<rev>:<path>`, or null when missing or not a tree. */
  async tree(rev: string, path: string): Promise<TreeEntry[] | null> {
    const obj = await this.batch.read(`${rev}:${path}`);
    if (obj === null || obj.type !== 'tree') return null;
    return parseTree(obj.content, obj.oid.length / 2);
  }

  /**
   * The text of a blob at `<rev>:<path>`, or null when missing or not a blob. A capsule document
   * is read to one byte past MAX_CAPSULE_BYTES at most, whatever its size: enough for the parser
   * to name it TOO_LARGE, and a 60 MB document another machine pushed is never held whole.
   */
  async text(rev: string, path: string): Promise<string | null> {
    const obj = await this.batch.read(`${rev}:${path}`, path.endsWith(DOCUMENT_NAME) ? DOCUMENT_READ : {});
    return obj === null || obj.type !== 'blob' ? null : obj.content.toString('utf8');
  }

  /** The text of the blob `oid`, or null when missing or not a blob. */
  async blobText(oid: string): Promise<string | null> {
    const obj = await this.batch.read(oid);
    return obj === null || obj.type !== 'blob' ? null : obj.content.toString('utf8');
  }

  /** Subtree names under `<rev>:<path>`, sorted ascending (empty when missing). */
  async subtrees(rev: string, path: string): Promise<string[]> {
    const entries = (await this.tree(rev, path)) ?? [];
    return entries.filter((e) => e.isTree).map((e) => e.name).sort();
  }

  /**
   * The shard trees below `capsules/`, the level whose trees hold capsule folders: format 3's
   * `<yyyy-mm-dd>` folders (`flat`: the ids sit in them) first, then older layouts' `<yyyy>/<mm>`
   * folders (ids, or format 2's `<dd>` folders of ids). Folders of no layout's shape are skipped.
   */
  private async shardTrees(rev: string): Promise<ShardTree[]> {
    const top = ((await this.tree(rev, 'capsules')) ?? []).filter((e) => e.isTree);
    const years = top.filter((e) => YEAR_NAME.test(e.name));
    const months = await Promise.all(years.map(async (y) => ((await this.tree(rev, `capsules/${y.name}`)) ?? []).filter((e) => e.isTree && MONTH_NAME.test(e.name)).map((m) => ({ oid: m.oid, path: `capsules/${y.name}/${m.name}`, flat: false }))));
    return [...top.filter((e) => DAY_NAME.test(e.name)).map((d) => ({ oid: d.oid, path: `capsules/${d.name}`, flat: true })), ...months.flat()];
  }

  /**
   * Every capsule directory in the tree, as `{ id, dir, oid }`: format 3's
   * `capsules/<yyyy-mm-dd>/<id>`, and format 2's `capsules/<yyyy>/<mm>/<dd>/<id>` and format 1's
   * `capsules/<yyyy>/<mm>/<id>` (a branch not migrated yet), one tree read per shard level, no
   * blobs. Folders that do not fit a layout (added by hand or by a foreign tool) are skipped, so
   * a strange name can never reach a path this store writes.
   */
  async capsuleDirs(rev: string): Promise<CapsuleDirEntry[]> {
    // Requests are pipelined: cat-file answers in order, so one round trip per level, not per tree.
    const shards = await this.shardTrees(rev);
    const days = shards.filter((s) => s.flat).map((s) => s.path);
    const months = shards.filter((s) => !s.flat).map((s) => s.path);
    const found: CapsuleDirEntry[] = [];
    for (const [i, entries] of (await Promise.all(months.map((m) => this.tree(rev, m)))).entries()) {
      for (const e of entries ?? []) {
        if (!e.isTree) continue;
        if (DAY_OF_MONTH_NAME.test(e.name)) days.push(`${months[i]}/${e.name}`);
        else if (isSafeId(e.name)) found.push({ id: e.name, dir: `${months[i]}/${e.name}`, oid: e.oid });
      }
    }
    for (const [i, entries] of (await Promise.all(days.map((d) => this.tree(rev, d)))).entries()) {
      for (const e of entries ?? []) if (e.isTree && isSafeId(e.name)) found.push({ id: e.name, dir: `${days[i]}/${e.name}`, oid: e.oid });
    }
    return found;
  }

  /**
   * How many capsule directories the tree holds (every layout's, as capsuleDirs finds them),
   * reading only the shard trees whose tree id `known` does not already count: format 3's day
   * trees, older layouts' month trees. A write changes one day's tree, so a reader that keeps
   * the counts by tree id reads one tree. Returns the total and the count of every shard tree by id.
   */
  async countCapsuleDirs(rev: string, known: ReadonlyMap<string, number>): Promise<{ total: number; months: Map<string, number> }> {
    // Known shards are counted in place: a branch of a year holds hundreds of day trees, and one
    // promise apiece cost a cold resume more than the one changed day's read.
    const months = new Map<string, number>();
    let total = 0;
    const unknown: ShardTree[] = [];
    for (const m of await this.shardTrees(rev)) {
      const cached = known.get(m.oid);
      if (cached === undefined) unknown.push(m);
      else {
        months.set(m.oid, cached);
        total += cached;
      }
    }
    const counted = await Promise.all(
      unknown.map(async (m) => {
        const entries = ((await this.tree(rev, m.path)) ?? []).filter((e) => e.isTree);
        if (m.flat) return [m.oid, entries.filter((e) => isSafeId(e.name)).length] as const;
        const days = await Promise.all(entries.filter((e) => DAY_OF_MONTH_NAME.test(e.name)).map(async (d) => ((await this.tree(rev, `${m.path}/${d.name}`)) ?? []).filter((e) => e.isTree && isSafeId(e.name)).length));
        return [m.oid, entries.filter((e) => !DAY_OF_MONTH_NAME.test(e.name) && isSafeId(e.name)).length + days.reduce((x, y) => x + y, 0)] as const;
      }),
    );
    for (const [oid, n] of counted) {
      months.set(oid, n);
      total += n;
    }
    return { total, months };
  }

  /** The status events in a capsule directory, oldest first. */
  async events(rev: string, dir: string): Promise<StatusEvent[]> {
    const statusDir = `${dir}/status`;
    const entries = (await this.tree(rev, statusDir)) ?? [];
    const events: StatusEvent[] = [];
    for (const e of entries) {
      const event = e.isTree ? null : parseEventName(e.name, statusDir);
      if (event) events.push(event);
    }
    return sortEvents(events);
  }

  /** The layout version the tree at `rev` declares in FORMAT (null: none declared). */
  async formatVersion(rev: string): Promise<number | null> {
    return formatVersion(await this.text(rev, FORMAT_PATH));
  }
}

/** One capsule directory of a tree: its id, its path and its tree object. */
export interface CapsuleDirEntry {
  id: string;
  dir: string;
  oid: string;
}

/** A shard tree below `capsules/` (MemoryTree.shardTrees). */
interface ShardTree {
  oid: string;
  path: string;
  flat: boolean;
}

function unreadable(ref: string, why: string, data: Record<string, unknown>): CapsuleError {
  return new CapsuleError('MEMORY_UNREADABLE', `${ref} is unreadable: ${why} (a corrupted or partly copied repository); run git fsck, then restore ${ref} from a remote (git fetch) or move it aside`, { ref, ...data });
}
