import type { ObjectReader } from './cat-file-batch';

/** What the walk needs of a commit: its parents and its committer time (seconds). */
export interface CommitLinks {
  parents: string[];
  time: number;
}

/** The parents and committer time of a commit object's text (headers up to the first blank line). */
export function parseCommitLinks(content: Buffer): CommitLinks {
  const text = content.toString('utf8');
  const end = text.indexOf('\n\n');
  const parents: string[] = [];
  let time = 0;
  for (const line of (end === -1 ? text : text.slice(0, end)).split('\n')) {
    if (line.startsWith('parent ')) parents.push(line.slice(7).trim());
    else if (line.startsWith('committer ')) time = Number(/> (\d+) [+-]\d{4}$/.exec(line)?.[1] ?? 0);
  }
  return { parents, time };
}

const LEFT = 1;
const RIGHT = 2;
const BOTH = LEFT | RIGHT;

/** Default bound of one walk: a resume after thousands of commits asks git instead. */
export const WALK_LIMIT = 2000;
/** Common commits still walked once only common ones are left: a parent dated after its child (a skewed clock) may hide a one-sided commit that is common after all. */
const SLOP = 32;

/**
 * How many commits are on `right` but not on `left` (ahead) and on `left` but not on `right`
 * (behind), as `git rev-list --left-right --count left...right` counts them, walked through the
 * object reader (no process): both sides are painted newest first by committer time, a commit
 * reached from both is common and so are its ancestors, and the walk ends SLOP commits after
 * only common ones remain (git's own answer for skewed clocks, without a commit-graph, is as
 * approximate). Null when the walk passes `limit` commits or a commit cannot be read (a shallow
 * clone's boundary, a missing object): the caller asks git.
 */
export async function countAheadBehind(objects: ObjectReader, left: string, right: string, opts: { limit?: number } = {}): Promise<{ ahead: number; behind: number } | null> {
  if (left === right) return { ahead: 0, behind: 0 };
  const limit = opts.limit ?? WALK_LIMIT;
  const flags = new Map<string, number>([[left, LEFT], [right, RIGHT]]);
  const links = new Map<string, CommitLinks>();
  const queue = new TimeQueue();
  for (const oid of [left, right]) {
    const info = await readLinks(objects, oid, links);
    if (info === null) return null;
    queue.push(oid, info.time);
  }
  let slop = SLOP;
  for (let visited = 0; queue.size > 0; visited += 1) {
    if (visited > limit) return null;
    if (queue.allCommon(flags) && (slop -= 1) < 0) break;
    const oid = queue.pop()!;
    const mark = flags.get(oid)!;
    const info = links.get(oid)!;
    for (const parent of info.parents) {
      const before = flags.get(parent) ?? 0;
      if ((before | mark) === before) continue;
      flags.set(parent, before | mark);
      const parentInfo = await readLinks(objects, parent, links);
      if (parentInfo === null) return null;
      queue.push(parent, parentInfo.time);
    }
  }
  let ahead = 0;
  let behind = 0;
  for (const mark of flags.values()) {
    if (mark === RIGHT) ahead += 1;
    else if (mark === LEFT) behind += 1;
  }
  return { ahead, behind };
}

async function readLinks(objects: ObjectReader, oid: string, cache: Map<string, CommitLinks>): Promise<CommitLinks | null> {
  const known = cache.get(oid);
  if (known) return known;
  const obj = await objects.read(oid);
  if (obj === null || obj.type !== 'commit') return null;
  const info = parseCommitLinks(obj.content);
  cache.set(oid, info);
  return info;
}

/** A max-heap of commits by committer time (an oid may be queued again when its flags grow). */
class TimeQueue {
  private heap: Array<{ oid: string; time: number }> = [];

  get size(): number {
    return this.heap.length;
  }

  push(oid: string, time: number): void {
    const h = this.heap;
    h.push({ oid, time });
    for (let i = h.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (h[up]!.time >= h[i]!.time) break;
      [h[up], h[i]] = [h[i]!, h[up]!];
      i = up;
    }
  }

  pop(): string | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]!.time > h[m]!.time) m = l;
        if (r < h.length && h[r]!.time > h[m]!.time) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top?.oid;
  }

  allCommon(flags: Map<string, number>): boolean {
    return this.heap.every((e) => flags.get(e.oid) === BOTH);
  }
}
