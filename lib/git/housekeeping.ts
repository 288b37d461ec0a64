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

/** Where a repository keeps its objects: `GIT_OBJECT_DIRECTORY`, else `<common dir>/objects`. */
export function objectsDirOf(commonDir: string, env: NodeJS.ProcessEnv): string {
  return env.GIT_OBJECT_DIRECTORY || join(commonDir, 'objects');
}

/**
 * Packs loose objects as they pile up, cheaply: after a write the estimate costs four readdirs;
 * only past `max` does it start `git maintenance run --task=loose-objects` (detached, never
 * waited for), which packs loose objects without walking any history (~0.15 ms of CPU each) and,
 * on its next run, deletes the ones it packed. Unlike `gc --auto`, it never repacks the project.
 * Returns true when it started the packing.
 */
export function scheduleHousekeeping(git: GitRunner, opts: { objectsDir: string | null; max?: number }): boolean {
  if (opts.objectsDir === null || !git.background) return false;
  if (estimateLooseObjects(opts.objectsDir) <= (opts.max ?? LOOSE_OBJECTS_MAX)) return false;
  git.background(['maintenance', 'run', '--task=loose-objects', '--quiet']);
  return true;
}
