import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRunner } from './git-runner';

/**
 * Loose objects past which a write packs them. A memory commit leaves ~8 loose objects (~32 KB
 * of disk at 4 KB a file); `git gc --auto` waits for 6,700 (~27 MB) and then repacks the whole
 * repository, project included. 768 keeps a clone's loose objects near 3 MB (6 MB at worst,
 * while the packed copies of the last batch wait for the next run to delete them).
 */
export const LOOSE_OBJECTS_MAX = 768;

// Four of the 256 folders objects are spread over by their first byte: enough to estimate, one readdir each.
const SAMPLE = ['17', '5a', 'a9', 'e3'];

/** The loose objects under `objectsDir`, estimated from four fanout folders (as `gc --auto` does from one). */
export function estimateLooseObjects(objectsDir: string): number {
  let seen = 0;
  for (const folder of SAMPLE) {
    try {
      seen += readdirSync(join(objectsDir, folder)).filter((name) => /^[0-9a-f]{38}([0-9a-f]{24})?$/.test(name)).length;
    } catch {
      // no such folder: no loose object there
    }
  }
  return Math.round((seen * 256) / SAMPLE.length);
}

/**
 * Packs past which a write rolls the small ones into one. Every hook's commit leaves one small
 * pack (lib/git/fast-import.ts, FAST_IMPORT_KEEP_PACK_ARGS); `git gc --auto` would repack the
 * whole repository, project included, at 50 (gc.autoPackLimit), so ours roll up long before.
 */
export const PACKS_MAX = 16;

/** The packs of an object store and whether any is a promisor pack (a partial clone). */
export interface PackCount {
  packs: number;
  promisor: boolean;
}

/** Counts the packs under `objectsDir`/pack (one readdir); none when there is no such folder. */
export function countPacks(objectsDir: string): PackCount {
  let names: string[];
  try {
    names = readdirSync(join(objectsDir, 'pack'));
  } catch {
    return { packs: 0, promisor: false };
  }
  return { packs: names.filter((n) => n.endsWith('.pack')).length, promisor: names.some((n) => n.endsWith('.promisor')) };
}

/**
 * Whether a write may keep the pack fast-import wrote (no `unpack-objects` fork). Not in a
 * partial clone: rolling packs up there is git's own business (promisor packs), so its writes
 * are unpacked as before.
 */
export function keepsImportPacks(objectsDir: string | null): boolean {
  return objectsDir !== null && !countPacks(objectsDir).promisor;
}

/** The job that packs loose objects without walking any history (see scheduleHousekeeping). */
export const PACK_LOOSE_OBJECTS: readonly string[] = ['maintenance', 'run', '--task=loose-objects', '--quiet'];

/** The job that rolls the small packs into one and leaves the project's own alone (see scheduleHousekeeping). */
export const ROLL_UP_PACKS: readonly string[] = ['repack', '-d', '-l', '-q', '--geometric=2'];

/** Where a repository keeps its objects: `GIT_OBJECT_DIRECTORY`, else `<common dir>/objects`. */
export function objectsDirOf(commonDir: string, env: NodeJS.ProcessEnv): string {
  return env.GIT_OBJECT_DIRECTORY || join(commonDir, 'objects');
}

/**
 * Packs objects as they pile up, cheaply: after a write the estimate costs five readdirs (one
 * when the write kept its pack and `loose` is false: it left no loose object). Past
 * `max` loose objects (a fetch unpacks small ones) it starts `git maintenance run
 * --task=loose-objects` (detached, never waited for), which packs loose objects without walking
 * any history (~0.15 ms of CPU each) and, on its next run, deletes the ones it packed. Past
 * `maxPacks` packs (each write leaves one) it starts `git repack -d -l --geometric=2`, which rolls
 * the small packs (and loose objects) into one and leaves every pack alone that is at least twice
 * the size of all smaller ones together: the project's own packs. Unlike `gc --auto`, neither
 * repacks the project. Nothing is rolled up in a partial clone. Returns true when it started one.
 */
export function scheduleHousekeeping(git: GitRunner, opts: { objectsDir: string | null; max?: number; maxPacks?: number; loose?: boolean }): boolean {
  if (opts.objectsDir === null || !git.background) return false;
  // `loose: false`: the write kept its pack, so it left no loose object to count (four readdirs saved).
  if (opts.loose !== false && estimateLooseObjects(opts.objectsDir) > (opts.max ?? LOOSE_OBJECTS_MAX)) {
    git.background(PACK_LOOSE_OBJECTS);
    return true;
  }
  const { packs, promisor } = countPacks(opts.objectsDir);
  if (promisor || packs <= (opts.maxPacks ?? PACKS_MAX)) return false;
  git.background(ROLL_UP_PACKS);
  return true;
}
