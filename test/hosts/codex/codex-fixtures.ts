import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parseTranscriptChunk } from '../../../lib/transcript/jsonl';
import type { TranscriptRecord } from '../../../lib/transcript/records';

/** test/fixtures/codex: copies of the codex-harness payloads, schemas and rollouts (see its README). */
export const CODEX_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'codex');

/** A real payload (`payloads/<name>.json`), with fields overridden. */
export function codexPayload(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...JSON.parse(readFileSync(join(CODEX_FIXTURES, 'payloads', `${name}.json`), 'utf8')), ...overrides };
}

/** Every real payload file of one event (`Stop.json`, `Stop.stop_hook_active.json`, …). */
export function codexPayloadNames(event: string): string[] {
  return readdirSync(join(CODEX_FIXTURES, 'payloads'))
    .filter((f) => f === `${event}.json` || f.startsWith(`${event}.`))
    .map((f) => f.replace(/\.json$/, ''));
}

const ajv = new Ajv({ strict: false, allErrors: true });
const KEBAB: Record<string, string> = { SessionStart: 'session-start', Stop: 'stop', PreCompact: 'pre-compact', PostCompact: 'post-compact', UserPromptSubmit: 'user-prompt-submit', SessionEnd: 'session-end' };

/** The errors of `value` against the shipped schema `schemas/<event>.command.<input|output>.json` (null: valid). */
export function schemaErrors(event: string, kind: 'input' | 'output', value: unknown): string | null {
  const schema = JSON.parse(readFileSync(join(CODEX_FIXTURES, 'schemas', `${KEBAB[event]}.command.${kind}.json`), 'utf8'));
  const validate = ajv.compile(schema);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

/** True when the shipped schemas have an output schema for the event (SessionEnd has none). */
export function hasOutputSchema(event: string): boolean {
  return readdirSync(join(CODEX_FIXTURES, 'schemas')).includes(`${KEBAB[event]}.command.output.json`);
}

/** The records of a rollout fixture. */
export function rolloutRecords(name = 'rollout-sample.jsonl'): TranscriptRecord[] {
  return parseTranscriptChunk(readFileSync(join(CODEX_FIXTURES, name), 'utf8')).records;
}

/** Rollout lines built the way Codex 0.169.0 writes them (rollout-sample.jsonl), one per call. */
export const rollout = {
  line: (type: string, payload: Record<string, unknown>, n = 0): TranscriptRecord => ({ line: n, data: { timestamp: '2026-12-01T08:59:20.000Z', type, payload } }),
  turn: (cwd: string) => rollout.line('turn_context', { turn_id: 't', cwd }),
  prompt: (text: string) => rollout.line('event_msg', { type: 'item_completed', item: { type: 'UserMessage', id: `u-${text.length}`, content: [{ type: 'text', text }] } }),
  said: (text: string) => rollout.line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }),
  exec: (id: string, cmd: string) => rollout.line('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: id }),
  output: (id: string, code: number, text: string) =>
    rollout.line('response_item', { type: 'function_call_output', call_id: id, output: `Chunk ID: x\nWall time: 0.0 seconds\nProcess exited with code ${code}\nOriginal token count: 2\nOutput:\n${text}` }),
  ran: (id: string, cmd: string, code: number, text: string, parsed: unknown[] = []) =>
    rollout.line('event_msg', { type: 'item_completed', item: { type: 'CommandExecution', id, command: ['/bin/bash', '-lc', cmd], cwd: 'file:///home/dev/project', parsed_cmd: parsed, status: code === 0 ? 'completed' : 'failed', aggregated_output: text, exit_code: code } }),
  patch: (id: string, input: string) => rollout.line('response_item', { type: 'custom_tool_call', name: 'apply_patch', input, call_id: id }),
  patchOutput: (id: string, code: number, text: string) => rollout.line('response_item', { type: 'custom_tool_call_output', call_id: id, output: `Exit code: ${code}\nWall time: 0 seconds\nOutput:\n${text}` }),
};
