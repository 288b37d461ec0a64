/**
 * The shapes of Claude Code transcript records (as Claude Code 2.1.332 writes them), as loose as the host
 * keeps them: every field is optional because the file is another program's output, and readers
 * check what they use.
 */

/** One content block of a `user` or `assistant` message. */
export interface ContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  /** tool_use */
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  /** tool_result */
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
}

/** A parsed JSONL record; only the fields git-capsule reads are named. */
export interface RawTranscriptRecord {
  type?: string;
  subtype?: string;
  uuid?: string;
  parentUuid?: string | null;
  logicalParentUuid?: string | null;
  sessionId?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  isCompactSummary?: boolean;
  isApiErrorMessage?: boolean;
  timestamp?: string;
  cwd?: string;
  gitBranch?: string;
  content?: unknown;
  message?: { id?: string; role?: string; content?: string | ContentBlock[] };
  attachment?: { type?: string; [key: string]: unknown };
  rendered?: Array<{ content?: unknown }>;
  renderedRole?: string;
  toolUseResult?: unknown;
  toolDenialKind?: string;
  permissionDecision?: { decision?: string; reasonCode?: string; [key: string]: unknown };
  origin?: { kind?: string };
  [key: string]: unknown;
}

/** A record with the 1-based line it was read from (problems and refusals name the line). */
export interface TranscriptRecord {
  line: number;
  data: RawTranscriptRecord;
}

/** Record types that carry a uuid and take part in the message graph; others are ignored. */
export const GRAPH_RECORD_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'attachment']);

/** The content blocks of a message, with a string content seen as one text block. */
export function contentBlocks(record: RawTranscriptRecord): ContentBlock[] {
  const content = record.message?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is ContentBlock => typeof b === 'object' && b !== null && typeof b.type === 'string');
}

/** The text of a tool_result's content (a string or text blocks); images and other blocks are skipped. */
export function toolResultText(block: ContentBlock): string {
  const c = block.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}
