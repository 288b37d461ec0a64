import { closeSync, openSync, writeSync } from 'node:fs';
import { seededRandom } from '../support/seeded-random';

/** What writeBigTranscript wrote. */
export interface BigTranscript {
  bytes: number;
  lines: number;
  /** Lines longer than `hugeLineBytes` (1-based line numbers). */
  hugeLines: number[];
  /** The uuid of the last record (the leaf `history` chooses). */
  leaf: string;
  /** A tool call id whose result is a normal-sized output near the end of the file. */
  lastToolSeqHint: string;
}

/** Options for writeBigTranscript. */
export interface BigTranscriptOptions {
  sessionId: string;
  targetBytes: number;
  /** Approximate byte lengths of giant single lines (tool outputs) to plant, spread over the file. */
  hugeLineBytes: number[];
  cwd?: string;
}

const FLUSH_BYTES = 4 * 1024 * 1024;

/**
 * Writes a Claude Code-shaped transcript of about `targetBytes` to `path`, the way a long real
 * session looks (claude-harness transcript-sample.jsonl): user prompts, assistant text and
 * tool_use rows with usage, tool_result rows whose output is repeated in `toolUseResult`
 * (the host stores both), attachments, bookkeeping rows, a compact boundary every ~2000 rows,
 * and a few giant single-line tool outputs. Text is sliced from a seeded pool, so the file is
 * the same on every run and written in about a second per 100 MB.
 */
export function writeBigTranscript(path: string, opts: BigTranscriptOptions): BigTranscript {
  const random = seededRandom(8);
  const cwd = opts.cwd ?? '/home/dev/project';
  const pool = makePool(random, 1 << 20);
  const text = (n: number): string => {
    if (n > pool.length) return pool.repeat(Math.ceil(n / pool.length)).slice(0, n);
    const at = Math.floor(random() * (pool.length - n));
    return pool.slice(at, at + n);
  };
  const fd = openSync(path, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let lines = 0;
  let n = 0;
  let parent: string | null = null;
  let lastToolId = '';
  const hugeLines: number[] = [];
  const hugeAt = opts.hugeLineBytes.map((size, i) => ({ size, at: Math.floor((opts.targetBytes * (i + 1)) / (opts.hugeLineBytes.length + 1)) }));
  const flush = () => {
    writeSync(fd, pending.join(''));
    pending = [];
    pendingBytes = 0;
  };
  const emit = (row: Record<string, unknown>, graph = true) => {
    const uuid = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const full = graph
      ? { parentUuid: parent, isSidechain: false, ...row, uuid, timestamp: stamp(n), userType: 'external', entrypoint: 'cli', cwd, sessionId: opts.sessionId, version: '2.1.332', gitBranch: 'main' }
      : { ...row, sessionId: opts.sessionId };
    if (graph) parent = uuid;
    const line = `${JSON.stringify(full)}\n`;
    pending.push(line);
    pendingBytes += line.length;
    bytes += Buffer.byteLength(line);
    lines++;
    if (pendingBytes > FLUSH_BYTES) flush();
    return uuid;
  };
  const usage = () => ({ input_tokens: 3, cache_creation_input_tokens: 400 + Math.floor(random() * 4000), cache_read_input_tokens: 20_000 + Math.floor(random() * 100_000), output_tokens: 10 + Math.floor(random() * 900), service_tier: 'standard' });
  const assistant = (content: unknown[]) =>
    emit({ type: 'assistant', message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content, stop_reason: 'tool_use', usage: usage() }, requestId: `req_${n}` });
  const toolRound = (outputBytes: number) => {
    const id = `toolu_${String(n).padStart(24, '0')}`;
    const kind = random();
    const [name, input] =
      kind < 0.4 ? ['Bash', { command: `npm test -- ${text(40)}`, description: 'Run the tests' }] : kind < 0.8 ? ['Read', { file_path: `${cwd}/lib/${text(12).replace(/\W/g, '')}.ts` }] : ['Edit', { file_path: `${cwd}/lib/file${n}.ts`, old_string: text(300), new_string: text(320) }];
    assistant([{ type: 'tool_use', id, name, input }]);
    const output = text(outputBytes);
    const isError = random() < 0.05;
    emit({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: output, ...(isError ? { is_error: true } : {}) }] },
      toolUseResult: name === 'Read' ? { type: 'text', file: { filePath: input.file_path, content: output } } : { stdout: output, stderr: '', interrupted: false },
      sourceToolAssistantUUID: parent,
    });
    lastToolId = id;
  };
  for (let turn = 0; bytes < opts.targetBytes; turn++) {
    const huge = hugeAt.find((h) => h.at >= 0 && h.at <= bytes);
    if (huge) {
      huge.at = -1;
      // The host writes a tool output twice on its line (content and toolUseResult).
      toolRound(Math.floor(huge.size / 2));
      hugeLines.push(lines);
      continue;
    }
    if (turn % 2000 === 1999) {
      emit({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', parentUuid: null, logicalParentUuid: parent, compactMetadata: { trigger: 'auto', preTokens: 160_000 } });
      emit({ type: 'user', message: { role: 'user', content: `This session is being continued from a previous conversation. ${text(3000)}` }, isCompactSummary: true });
    }
    emit({ type: 'user', message: { role: 'user', content: `Please ${text(200)}` }, promptId: `p${turn}` });
    emit({ type: 'attachment', attachment: { type: 'hook_additional_context', content: [text(150)], hookName: 'UserPromptSubmit' } });
    assistant([{ type: 'text', text: text(400) }]);
    const rounds = 1 + Math.floor(random() * 4);
    for (let r = 0; r < rounds; r++) {
      // Most outputs are a few KB; one in twenty is a long file or log of 100-300 KB.
      toolRound(random() < 0.05 ? 100_000 + Math.floor(random() * 200_000) : 500 + Math.floor(random() * 12_000));
    }
    assistant([{ type: 'text', text: `Done: ${text(300)}` }]);
    emit({ type: 'system', subtype: 'stop_hook_summary', hookCount: 1, hookInfos: [{ command: 'node stop.js' }], hookErrors: [], preventedContinuation: false, level: 'suggestion' });
    emit({ type: 'last-prompt', lastPrompt: text(80) }, false);
  }
  const leaf = emit({ type: 'assistant', message: { id: 'msg_last', type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text: 'All done.' }], stop_reason: 'end_turn', usage: usage() } });
  flush();
  closeSync(fd);
  return { bytes, lines, hugeLines, leaf, lastToolSeqHint: lastToolId };
}

function stamp(n: number): string {
  return new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString();
}

// Printable text with spaces, newlines, quotes and some non-ASCII (JSON escapes and UTF-8 both occur).
function makePool(random: () => number, size: number): string {
  const words = ['const', 'value', 'return', 'function', 'test', 'the', 'file', 'error', 'line', 'import', '"quoted"', 'naïve', 'café', '→', 'ok', '{', '}', '\n', '\t', 'path/to/module.ts'];
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const w = words[Math.floor(random() * words.length)]!;
    parts.push(w, ' ');
    length += w.length + 1;
  }
  return parts.join('');
}
