/** How full the main conversation's context is, read from its persisted transcript. */
export interface ContextFill {
  /** input + cache-creation + cache-read tokens of the last main-chain request (or the compaction's postTokens). */
  tokens: number;
  /** The model that answered that request (`requestedModel` when it carries a `[1m]` tag). */
  model: string | null;
  /** `usage` of an assistant record, `compact_boundary` when a compaction came after the last one, or a Codex `token_count` event. */
  source: 'usage' | 'compact_boundary' | 'token_count';
  /** The uuid of the record the number came from, when it had one. */
  uuid: string | null;
}

type Rec = Record<string, unknown>;

/**
 * Finds the context fill in transcript records, newest last: the last main-chain assistant
 * record's `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`. Sidechain
 * (subagent) records and `<synthetic>` records (API errors, which report zero usage) are
 * skipped; a `compact_boundary` after the last usable record gives its `postTokens`. Returns
 * null when no record says anything usable. Never throws: every field is type-guarded.
 *
 * @example
 * contextFill(parseTranscriptChunk(text).records.map((r) => r.data))?.tokens
 */
export function contextFill(records: readonly unknown[]): ContextFill | null {
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const fill = recordFill(records[i]);
    if (fill !== undefined) return fill;
  }
  return null;
}

/**
 * What one record says about the fill: a fill, null (a compaction made the old fill stale
 * without saying what replaced it), or undefined when it says nothing. The last record that
 * says something decides, so a reader streaming forward keeps only that one.
 */
export function recordFill(rec: unknown): ContextFill | null | undefined {
  if (!isRecord(rec) || rec.isSidechain === true) return undefined;
  if (rec.type === 'system' && rec.subtype === 'compact_boundary') {
    const post = isRecord(rec.compactMetadata) ? tokenCount(rec.compactMetadata.postTokens) : null;
    return post === null ? null : { tokens: post, model: null, source: 'compact_boundary', uuid: str(rec.uuid) };
  }
  if (rec.type !== 'assistant' || !isRecord(rec.message)) return undefined;
  const model = str(rec.message.model);
  if (model === '<synthetic>' || rec.isApiErrorMessage === true) return undefined;
  const usage = rec.message.usage;
  if (!isRecord(usage)) return undefined;
  const input = tokenCount(usage.input_tokens);
  if (input === null) return undefined;
  const tokens = input + (tokenCount(usage.cache_creation_input_tokens) ?? 0) + (tokenCount(usage.cache_read_input_tokens) ?? 0);
  const requested = str(rec.requestedModel);
  return { tokens, model: requested && /\[1m\]/i.test(requested) ? requested : model, source: 'usage', uuid: str(rec.uuid) };
}

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function tokenCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}
