import { newCapsuleId } from '../capsule/id';
import { redactSecrets } from '../redact/redact-secrets';
import { runResume } from '../resume-runtime/run-resume';
import { openStore } from '../store/open-store';
import { parseTranscriptChunk } from '../transcript/jsonl';
import { extractWorkEvents } from '../transcript/work-events';
import type { HookDeps } from './hook-deps';

/** The real modules behind the hooks; each entry bundles only what its handler reaches. */
export const defaultDeps: HookDeps = {
  openStore,
  parseTranscriptChunk,
  extractWorkEvents,
  redactSecrets,
  newCapsuleId: (now) => newCapsuleId(now),
  runResume,
};
