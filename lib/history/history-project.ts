import { CapsuleError } from '../errors/capsule-error';
import type { JsonlProblem, TranscriptChunk } from '../transcript/jsonl';
import type { TranscriptRecord } from '../transcript/records';
import { AddressBookBuilder, type AddressOptions } from './history-addresses';
import { isCompactBoundary, isRepersisted, selectBranch } from './history-branch';
import type { HistoryEvent, HistoryProjection } from './history-types';

/** Options for projectHistory. */
export interface ProjectHistoryOptions extends AddressOptions {
  /** The session the file belongs to; records naming another session refuse. Default: the first record's. */
  sessionId?: string;
  /** Read this leaf's branch instead of choosing one. */
  leaf?: string;
  /** True for a subagent transcript (every record a sidechain); a main transcript holds none. */
  sidechain?: boolean;
}

/**
 * Projects a parsed transcript into addressed history on its selected branch, with windows
 * `claude:<session>:<ordinal>` (compact boundaries advance the ordinal) or, when an ancestor is
 * missing, `claude:<session>:unknown:<missingUuid>`.
 * Throws HISTORY_MALFORMED_LINE, HISTORY_SESSION_MISMATCH, HISTORY_SIDECHAIN_MISMATCH and the
 * codes of allocateAddresses and selectBranch, each naming the line.
 *
 * @example
 * const projection = projectHistory(parseTranscriptChunk(text, { includeUnterminated: true }), { sessionId });
 */
export function projectHistory(chunk: Pick<TranscriptChunk, 'records' | 'problems'>, options: ProjectHistoryOptions = {}): HistoryProjection {
  const builder = new HistoryBuilder(options);
  // A malformed line refuses before any record is looked at.
  for (const problem of chunk.problems) builder.problem(problem);
  for (const record of chunk.records) builder.add(record);
  return builder.finish();
}

/** projectHistory one line at a time, for a reader that streams the file (lib/hosts/claude/history-file.ts). */
export class HistoryBuilder {
  private sessionId: string | undefined;
  private readonly book: AddressBookBuilder;
  private readonly oversizeLines: number[] = [];

  constructor(private readonly options: ProjectHistoryOptions = {}) {
    this.sessionId = options.sessionId;
    this.book = new AddressBookBuilder({ keepText: options.keepText, query: options.query });
  }

  /** A problem of the reader: an over-long line is counted (its stub comes as a record); any other refuses. */
  problem(problem: JsonlProblem): void {
    if (problem.code === 'JSONL_LINE_TOO_LONG') {
      this.oversizeLines.push(problem.line);
      return;
    }
    throw new CapsuleError('HISTORY_MALFORMED_LINE', `history: ${problem.message}; expected one JSON object per committed line (only an unterminated last line is tolerated). The transcript is corrupted; pass --file a clean copy.`, { line: problem.line, problems: [problem] });
  }

  /** The next record in file order, with its line's byte offset. */
  add(record: TranscriptRecord, offset?: number): void {
    const { line, data } = record;
    if (this.sessionId === undefined && typeof data.sessionId === 'string') this.sessionId = data.sessionId;
    if (typeof data.sessionId === 'string' && data.sessionId !== this.sessionId) {
      throw new CapsuleError('HISTORY_SESSION_MISMATCH', `history: line ${line} belongs to session ${data.sessionId}, expected ${this.sessionId}; one transcript file holds one session.`, { line, expected: this.sessionId, received: data.sessionId });
    }
    const sidechain = this.options.sidechain ?? false;
    if (typeof data.isSidechain === 'boolean' && data.isSidechain !== sidechain) {
      throw new CapsuleError('HISTORY_SIDECHAIN_MISMATCH', `history: line ${line} is ${data.isSidechain ? 'a sidechain (subagent) record in a main' : 'a main-chain record in a subagent'} transcript; subagent history lives in its own file under <session>/subagents/.`, { line, expected: sidechain, received: data.isSidechain });
    }
    this.book.add(record, offset);
  }

  /** Selects the branch and numbers its windows. Throws as projectHistory. */
  finish(): HistoryProjection {
    const options = this.options;
    const sessionId = this.sessionId ?? 'unknown';
    const book = this.book.book();
    const branch = selectBranch(book.nodes, options.leaf);
    const events: HistoryEvent[] = [];
    const windows: string[] = [];
    const boundaryLines = branch.path.filter(isCompactBoundary).map((n) => n.line);
    let ordinal = 0;
    branch.path.forEach((node, index) => {
      if (isCompactBoundary(node) && index > 0) ordinal++;
      // A preserved row re-persisted after a boundary keeps the window it was first written in.
      const own = isRepersisted(node) ? boundaryLines.filter((line) => line < node.line).length : ordinal;
      const name = branch.missing.length > 0 ? `claude:${sessionId}:unknown:${branch.missing[0]}` : `claude:${sessionId}:${own}`;
      // One string per window, shared by its events.
      let window = windows.find((w) => w === name);
      if (window === undefined) windows.push((window = name));
      for (const event of [node.event, ...node.calls, ...node.orphans]) {
        event.window = window;
        events.push(event);
      }
    });
    return { sessionId, leaf: branch.leaf, events, addresses: book.addresses, redirects: book.redirects, missing: branch.missing, neededByLine: branch.neededByLine, windows, oversizeLines: this.oversizeLines, query: options.query };
  }
}
