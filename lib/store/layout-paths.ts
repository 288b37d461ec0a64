import { RETIRED_DIR } from './memory-format';

/*
 * The memory tree's paths as whole strings, for readers of a flat listing (`ls-tree -r`,
 * `diff-tree`) rather than of trees: sync's merge, its move counts and publish messages. The
 * store's own tree walk checks each folder name instead (DAY_NAME, YEAR_NAME, MONTH_NAME,
 * DAY_OF_MONTH_NAME in memory-format.ts). No pattern here checks an id: a caller tests it with
 * isSafeId before it names a path anything writes.
 */

// Each format's shard folders as these patterns read them: digits only, months and days not
// range-checked, so a near shape (`2026-13-45`) is still read as that format and its capsule
// moved to the day its id names.
const V3_SHARD = String.raw`\d{4,5}-\d\d-\d\d`;
const V2_SHARD = String.raw`\d{4,5}/\d\d/\d\d`;
const V1_SHARD = String.raw`\d{4,5}/\d\d`;
// One to three folders of any name: the depth of every layout, and nothing more.
const ANY_SHARD = '(?:[^/]+/){1,3}';
const ID = '([^/]+)';

/**
 * A file in a format-3 capsule directory, `capsules/<yyyy-mm-dd>/<id>/<rest>`. Groups: the
 * directory, the id, the rest (one line: a rest holding a line feed does not match).
 */
export const V3_CAPSULE_FILE = new RegExp(`^(capsules/${V3_SHARD}/${ID})/(.+)$`);
/**
 * A file in a format-2 capsule directory, `capsules/<yyyy>/<mm>/<dd>/<id>/<rest>`; groups as
 * V3_CAPSULE_FILE. Try it before V1_CAPSULE_FILE, which reads the day folder as an id.
 */
export const V2_CAPSULE_FILE = new RegExp(`^(capsules/${V2_SHARD}/${ID})/(.+)$`);
/** A file in a format-1 capsule directory, `capsules/<yyyy>/<mm>/<id>/<rest>`; groups as V3_CAPSULE_FILE. */
export const V1_CAPSULE_FILE = new RegExp(`^(capsules/${V1_SHARD}/${ID})/(.+)$`);
/**
 * Anything below a format-3 capsule directory, `capsules/<yyyy-mm-dd>/<id>/…`, whatever follows
 * the slash (nothing, a line feed). Group: the id.
 */
export const V3_CAPSULE_ENTRY = new RegExp(`^capsules/${V3_SHARD}/${ID}/`);

/**
 * A remote revision of a capsule document this clone sealed, set aside by sync beside the one it
 * kept: `capsules/<yyyy-mm-dd>/<id>/foreign/<blob id>.md` (lib/sync/merge-listings.ts). Groups:
 * the id, the blob id. Part of the layout: never selected, carried by every merge.
 */
export const V3_FOREIGN_REVISION = new RegExp(`^capsules/${V3_SHARD}/${ID}/foreign/([0-9a-f]{40,64})\\.md$`);

/** Format 3's tombstone of a retired capsule, `retired/<yyyy-mm-dd>/<id>`. Group: the id. */
export const V3_TOMBSTONE = new RegExp(`^${RETIRED_DIR}/${V3_SHARD}/${ID}$`);
/**
 * A tombstone of format 3 or of format 2 (`retired/<yyyy>/<mm>/<dd>/<id>`; format 1 retired
 * nothing). Group: the id.
 */
export const TOMBSTONE = new RegExp(`^${RETIRED_DIR}/(?:${V3_SHARD}|${V2_SHARD})/${ID}$`);

/**
 * A capsule document in any layout, `capsules/<one to three folders>/<id>/capsule.md`, the
 * folders of any name: for counting and describing changes, never for placing a file. Group: the id.
 */
export const ANY_LAYOUT_DOCUMENT = new RegExp(`^capsules/${ANY_SHARD}${ID}/capsule\\.md$`);
/** Any file in a status folder of any layout, `capsules/<one to three folders>/<id>/status/<name>`. Groups: the id, the name. */
export const ANY_LAYOUT_STATUS_FILE = new RegExp(`^capsules/${ANY_SHARD}${ID}/status/([^/]+)$`);
/**
 * A status event of any layout whose name has an event's shape, `<stamp>-<writer>-<word>`, the
 * word any lowercase letters (a status or not: parseEventName is what readers believe). Groups: the id, the word.
 */
export const ANY_LAYOUT_EVENT = new RegExp(`^capsules/${ANY_SHARD}${ID}/status/[^-/]+-[^/]*-([a-z]+)$`);
/** A tombstone of any layout, `retired/<one to three folders>/<id>`. Group: the id. */
export const ANY_LAYOUT_TOMBSTONE = new RegExp(`^${RETIRED_DIR}/${ANY_SHARD}${ID}$`);
