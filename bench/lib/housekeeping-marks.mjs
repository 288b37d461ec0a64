// Keeps a bench repository below the marks at which a write starts detached housekeeping
// (lib/git/housekeeping.ts: loose objects, and the small pack each write leaves), so that no timed
// run starts one: what a write would start is run here instead, outside the timing. The marks and
// the jobs are the hooks' own, loaded from the source.
import { join } from 'node:path';
import { loadTs } from './load-ts.mjs';

const { countPacks, estimateLooseObjects, LOOSE_OBJECTS_MAX, PACKS_MAX, PACK_LOOSE_OBJECTS, ROLL_UP_PACKS } = await loadTs('lib/git/housekeeping.ts');

/**
 * Packs `dir`'s objects while they are past half of either mark: the loose-objects task twice
 * (the second run deletes what the first packed), the packs with the repack a write would start.
 * `git(cwd, ...args)` runs git the way the bench does.
 */
export function keepObjectsLow(dir, git) {
  const objects = join(dir, '.git', 'objects');
  if (estimateLooseObjects(objects) > LOOSE_OBJECTS_MAX / 2) for (let k = 0; k < 2; k++) git(dir, ...PACK_LOOSE_OBJECTS);
  if (countPacks(objects).packs > PACKS_MAX / 2) git(dir, ...ROLL_UP_PACKS);
}

/** True when `dir` is past a mark at which a write starts housekeeping (a timed run would have started it). */
export function pastHousekeepingMark(dir) {
  const objects = join(dir, '.git', 'objects');
  return estimateLooseObjects(objects) > LOOSE_OBJECTS_MAX || countPacks(objects).packs > PACKS_MAX;
}
