import { utcSortKey } from '../capsule/created-at';

/** The `FORMAT` file of every memory tree: its first line names the format; readers check it. */
export const FORMAT_PATH = 'FORMAT';
/** The first line of `FORMAT`: a ref whose tip lacks it is not a memory branch (MEMORY_ROOT). */
export const FORMAT_MAGIC = 'git-capsule memory branch';
/** The whole `FORMAT` file of format version 1 (part of the deterministic root). */
export const FORMAT_TEXT = `${FORMAT_MAGIC}\nformat: 1\nlayout: capsules/<yyyy>/<mm>/<id>/capsule.md, capsules/<yyyy>/<mm>/<id>/status/<stamp>-<writer>-<status>, index/\n`;

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

/** `<yyyy>/<mm>` of an instant, in UTC, so a capsule's shard never depends on the writer's offset. */
export function monthOf(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear().toString().padStart(4, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The directory of a capsule: `capsules/<yyyy>/<mm>/<id>`. */
export function capsuleDir(id: string, month: string): string {
  return `capsules/${month}/${id}`;
}

/** The document path of a capsule: `capsules/<yyyy>/<mm>/<id>/capsule.md`. */
export function capsulePath(id: string, month: string): string {
  return `${capsuleDir(id, month)}/capsule.md`;
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

/** The UTC month a ULID's time part names, or null for another kind of id (a lookup hint only). */
export function ulidMonth(id: string): string | null {
  if (!/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id)) return null;
  let ms = 0;
  for (const ch of id.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(ch);
  return monthOf(ms);
}
