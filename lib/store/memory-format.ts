import { utcSortKey } from '../capsule/created-at';

/** The `FORMAT` file of every memory tree: its first line names the format; readers check it. */
export const FORMAT_PATH = 'FORMAT';
/** The first line of `FORMAT`: a ref whose tip lacks it is not a memory branch (MEMORY_ROOT). */
export const FORMAT_MAGIC = 'git-capsule memory branch';
/** The layout version this code writes. Trees of version 1 are read as they are and migrated on the next write. */
export const FORMAT_VERSION = 2;
/**
 * The whole `FORMAT` file of version 2. Capsules are sharded by the UTC day of the time their id
 * carries (ULID, UUIDv7), so the trees one commit rewrites hold one day's capsules, not the
 * month's, and a capsule's path follows from its id alone.
 */
export const FORMAT_TEXT = `${FORMAT_MAGIC}\nformat: 2\nlayout: capsules/<yyyy>/<mm>/<dd>/<id>/capsule.md, capsules/<yyyy>/<mm>/<dd>/<id>/status/<stamp>-<writer>-<status>, retired/<yyyy>/<mm>/<dd>/<id>, index/\n`;
/**
 * The `FORMAT` file of version 1 (capsules sharded by the month of `created_at`). It stays the
 * deterministic root's, so branches of both versions share one root and always merge.
 */
export const FORMAT_TEXT_V1 = `${FORMAT_MAGIC}\nformat: 1\nlayout: capsules/<yyyy>/<mm>/<id>/capsule.md, capsules/<yyyy>/<mm>/<id>/status/<stamp>-<writer>-<status>, index/\n`;

/** The version a `FORMAT` text declares (`format: N`), or null when it declares none. */
export function formatVersion(text: string | null): number | null {
  const m = /^format: (\d+)$/m.exec(text ?? '');
  return m ? Number(m[1]) : null;
}

/** The default memory ref (DESIGN §2). */
export const DEFAULT_MEMORY_REF = 'refs/heads/capsules';

/**
 * Everything fixed about the root commit, so every clone that runs `init` gets the same root
 * id and two machines' histories are never unrelated. 1767225600 is 2026-01-01T00:00:00Z.
 */
export const ROOT_COMMIT = {
  identity: { name: 'git-capsule', email: 'git-capsule@localhost' },
  epochSeconds: 1767225600,
  message: 'init: git-capsule memory branch\n\nCapsule-Op: init\n',
} as const;

/** Ids become path components, so only these characters are ever written (ULID, UUIDv7). */
const SAFE_ID = /^[0-9A-Za-z][0-9A-Za-z-]{7,63}$/;

/** True when `id` is safe as a path component of the memory tree. */
export function isSafeId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id);
}

/** `<yyyy>/<mm>` of an instant, in UTC (the shard of format 1). */
export function monthOf(epochMs: number): string {
  return dayOf(epochMs).slice(0, -3);
}

/** `<yyyy>/<mm>/<dd>` of an instant, in UTC. */
export function dayOf(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear().toString().padStart(4, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** The shard of an id that carries no time: such a capsule can only come from a foreign writer. */
export const TIMELESS_DAY = '0000/00/00';

/** The directory of a capsule: `capsules/<yyyy>/<mm>/<dd>/<id>`, the UTC day of the time in its id. */
export function capsuleDir(id: string): string {
  return `capsules/${idDay(id) ?? TIMELESS_DAY}/${id}`;
}

/** The document path of a capsule: `capsules/<yyyy>/<mm>/<dd>/<id>/capsule.md`. */
export function capsulePath(id: string): string {
  return `${capsuleDir(id)}/capsule.md`;
}

/** Where retired capsules leave their mark: `retired/<yyyy>/<mm>/<dd>/<id>`, beside nothing else. */
export const RETIRED_DIR = 'retired';

/**
 * The tombstone of a retired capsule, on the same day as its folder was: its presence keeps the
 * capsule out of the tip through every merge (see retireFinished).
 */
export function retiredPath(id: string): string {
  return `${RETIRED_DIR}/${idDay(id) ?? TIMELESS_DAY}/${id}`;
}

/** The document inside a capsule directory. */
export function documentIn(dir: string): string {
  return `${dir}/capsule.md`;
}

/** Where format 1 kept a capsule: `capsules/<yyyy>/<mm>/<id>`, the month of its created_at (hinted here by its id's time). */
export function legacyDirHint(id: string): string | null {
  const day = idDay(id);
  return day === null ? null : `capsules/${day.slice(0, -3)}/${id}`;
}

/** The stamp of a status event: the UTC sort key of `now`, e.g. `20261129T211500123Z`. */
export function eventStamp(now: Date): string {
  return utcSortKey(now.getTime());
}

/** A writer name safe in a file name: letters, digits, `.`, `_`, `-`; bounded; never empty. */
export function safeWriter(writer: string): string {
  const clean = writer.replace(/[^0-9A-Za-z._-]+/g, '_').replace(/^[.-]+/, '').slice(0, 64);
  return clean === '' ? 'unknown' : clean;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The instant (ms) the id carries: a ULID's first 10 characters, a UUIDv7's first 48 bits; null for other ids. */
export function idTime(id: string): number | null {
  if (/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id)) {
    let ms = 0;
    for (const ch of id.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(ch);
    return ms;
  }
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return null;
}

/** The UTC day (`yyyy/mm/dd`) of the time an id carries, or null for an id that carries none. */
export function idDay(id: string): string | null {
  const ms = idTime(id);
  return ms === null ? null : dayOf(ms);
}
