/**
 * Size bounds of a capsule. A capsule is read back on other machines and rendered into a
 * 10,000-character hook budget, so anything larger is refused at write and rejected by name
 * at read, before YAML ever sees it (a 5 MB document must cost bounded time).
 */
export const MAX_CAPSULE_BYTES = 256 * 1024;

/** YAML aliases expanded at most; more is treated as an alias bomb (billion laughs). */
export const MAX_YAML_ALIASES = 64;

/** Default bound on the bullets kept in one body section by `mergeSectionBullets`. */
export const DEFAULT_SECTION_MAX = 40;
