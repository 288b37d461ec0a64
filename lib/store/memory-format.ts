import { utcSortKey } from '../capsule/created-at';

/** The `FORMAT` file of every memory tree: its first line names the format; readers check it. */
export const FORMAT_PATH = 'FORMAT';
/** The first line of `FORMAT`: a ref whose tip lacks it is not a memory branch (MEMORY_ROOT). */
export const FORMAT_MAGIC = 'git-capsule memory branch';
/** The layout version this code writes. Trees of versions 1 and 2 are read as they are and migrated on the next write. */
export const FORMAT_VERSION = 3;
/**
 * The whole `FORMAT` file of version 3. Capsules are sharded by the UTC day of the time their id
 * carries (ULID, UUIDv7), one folder per day (`2026-11-29`), so a capsule's path follows from its
 * id alone and a commit rewrites one tree per level of that path: the year and month levels of
 * format 2 cost 37–106 bytes each per commit, 12.7 % of the published bytes (docs/performance.md).
 */
export const FORMAT_TEXT = `${FORMAT_MAGIC}\nformat: 3\nlayout: capsules/<yyyy-mm-dd>/<id>/capsule.md, capsules/<yyyy-mm-dd>/<id>/status/<stamp>-<writer>-<status>, retired/<yyyy-mm-dd>/<id>, index/\n`;
/** The `FORMAT` file of version 2 (one folder per year, month and day), as the previous git-capsule wrote it. */
export const FORMAT_TEXT_V2 = `${FORMAT_MAGIC}\nformat: 2\nlayout: capsules/<yyyy>/<mm>/<dd>/<id>/capsule.md, capsules/<yyyy>/<mm>/<dd>/<id>/status/<stamp>-<writer>-<status>, retired/<yyyy>/<mm>/<dd>/<id>, index/\n`;
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

/** The default memory ref, a local branch; `git config capsule.ref` may name another (docs/sync.md "Where the memory lives"). */
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
  return dayOf(epochMs).slice(0, -3).replace('-', '/');
}

/** `<yyyy>-<mm>-<dd>` of an instant, in UTC: one folder name (format 3's day shard). */
export function dayOf(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear().toString().padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** The shard of an id that carries no time: such a capsule can only come from a foreign writer. */
export const TIMELESS_DAY = '0000-00-00';

/** A day folder name of format 3 (`2026-11-29`; years of five digits: a ULID can carry a time up to the year 10889). */
export const DAY_NAME = /^\d{4,5}-(0[0-9]|1[0-2])-([0-2][0-9]|3[01])$/;
/** A year folder name of formats 1 and 2 (`capsules/<yyyy>/…`, format 2's `retired/<yyyy>/…`; four or five digits, as in DAY_NAME; `0000` held ids without a time). */
export const YEAR_NAME = /^\d{4,5}$/;
/** A month folder name of formats 1 and 2 (`capsules/<yyyy>/<mm>/…`; `00` held ids without a time). */
export const MONTH_NAME = /^(0[0-9]|1[0-2])$/;
/** A day-of-month folder name of format 2 (`capsules/<yyyy>/<mm>/<dd>/…`; `00` held ids without a time). */
export const DAY_OF_MONTH_NAME = /^([0-2][0-9]|3[01])$/;

/** The directory of a capsule: `capsules/<yyyy-mm-dd>/<id>`, the UTC day of the time in its id. */
export function capsuleDir(id: string): string {
  return `capsules/${idDay(id) ?? TIMELESS_DAY}/${id}`;
}

/** The document path of a capsule: `capsules/<yyyy-mm-dd>/<id>/capsule.md`. */
export function capsulePath(id: string): string {
  return `${capsuleDir(id)}/capsule.md`;
}

/** Where retired capsules leave their mark: `retired/<yyyy-mm-dd>/<id>`, beside nothing else. */
export const RETIRED_DIR = 'retired';

/**
 * The tombstone of a retired capsule, on the same day as its folder was: its presence keeps the
 * capsule out of the tip through every merge (see retireFinished).
 */
export function retiredPath(id: string): string {
  return `${RETIRED_DIR}/${idDay(id) ?? TIMELESS_DAY}/${id}`;
}

/** Where format 2 kept the tombstone of a retired capsule: `retired/<yyyy>/<mm>/<dd>/<id>` (read until the next write moves it). */
export function legacyRetiredPath(id: string): string {
  return `${RETIRED_DIR}/${(idDay(id) ?? TIMELESS_DAY).replace(/-/g, '/')}/${id}`;
}

/** The document inside a capsule directory. */
export function documentIn(dir: string): string {
  return `${dir}/capsule.md`;
}

/**
 * Where older layouts kept a capsule, most likely first: format 2's `capsules/<yyyy>/<mm>/<dd>/<id>`
 * (the day of its id's time, exactly) and format 1's `capsules/<yyyy>/<mm>/<id>` (the month of its
 * created_at, hinted here by its id's time). An id that carries no time has only format 2's
 * `capsules/0000/00/00/<id>`.
 */
export function legacyDirHints(id: string): string[] {
  const day = idDay(id);
  if (day === null) return [`capsules/${TIMELESS_DAY.replace(/-/g, '/')}/${id}`];
  const [yyyy, mm] = day.split('-') as [string, string, string];
  return [`capsules/${day.replace(/-/g, '/')}/${id}`, `capsules/${yyyy}/${mm}/${id}`];
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

/** The UTC day (`yyyy-mm-dd`) of the time an id carries, or null for an id that carries none. */
export function idDay(id: string): string | null {
  const ms = idTime(id);
  return ms === null ? null : dayOf(ms);
}
