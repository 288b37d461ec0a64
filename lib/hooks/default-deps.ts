import { newCapsuleId } from '../capsule/id';
import { runResume } from '../resume-runtime/run-resume';
import { openStore } from '../store/open-store';
import { redactCapsuleText } from '../store/redact-capsule';
import { parseTranscriptChunk } from '../transcript/jsonl';
import { extractWorkState } from '../transcript/work-events';
import type { HookDeps } from './hook-deps';

/** The real modules behind the hooks; each entry bundles only what its handler reaches. */
export const defaultDeps: HookDeps = {
  openStore,
  parseTranscriptChunk,
  extractWorkState,
  // Capsule-aware: a field that is nothing but a secret stays a valid capsule (plain redactSecrets
  // would turn `objective: sk-…` into the YAML list `objective: [REDACTED:…]` and fail the write).
  redactSecrets: redactCapsuleText,
  newCapsuleId: (now) => newCapsuleId(now),
  runResume,
};
