import { newCapsuleId } from '../capsule/id';
import { runResume } from '../resume-runtime/run-resume';
import { openStore } from '../store/open-store';
import { parseTranscriptChunk } from '../transcript/jsonl';
import { extractWorkEvents } from '../transcript/work-events';
import type { HookDeps } from './hook-deps';

/**
 * Stands in for lib/redact's `redactSecrets` until it is in main; `redactBeforeCommit`
 * (lib/hooks/autosave.ts) is the one call site, so wiring it is this one line.
 */
const redactSecretsPending: HookDeps['redactSecrets'] = (text) => ({ text, findings: [] });

/** The real modules behind the hooks; each entry bundles only what its handler reaches. */
export const defaultDeps: HookDeps = {
  openStore,
  parseTranscriptChunk,
  extractWorkEvents,
  redactSecrets: redactSecretsPending,
  newCapsuleId: (now) => newCapsuleId(now),
  runResume,
};
