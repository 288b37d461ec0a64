// The store and sync of lib/, for bench/team-scale.mjs (bundled by bench/lib/load-ts.mjs): the
// bench drives them in one process, so what it times is the store's and git's work, not node's start.
export { renderCapsule } from '../../lib/capsule/render';
export { emptySections } from '../../lib/capsule/sections';
export { newCapsuleId } from '../../lib/capsule/id';
export { openStore } from '../../lib/store/open-store';
export { capsuleDir, capsulePath, retiredPath, FORMAT_TEXT } from '../../lib/store/memory-format';
export { eventName, eventText } from '../../lib/store/status-events';
export { syncMemory } from '../../lib/sync/sync-memory';
