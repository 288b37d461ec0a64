#!/usr/bin/env node
// A scripted fake of the OpenAI Responses API, for the real Codex CLI on loopback.
//
//   node fake-api.mjs [--port 0] [--port-file F] [--log requests.jsonl] [--script rules.json] [--lifetime S]
//
// Codex 0.169 speaks only the Responses wire: `POST /v1/responses`, always streamed, for turns,
// the TUI's title requests and compaction (an ordinary request whose x-codex-turn-metadata
// header says request_kind "compaction"); `POST /v1/responses/compact` is served too. The
// system prompt and hook context are role:"developer" messages of `input`; the environment
// (with <cwd>) and a Stop hook's continuation are role:"user" messages wrapped in tags.
//
// `when` (all given must hold; patterns are case-insensitive regular expressions):
//   any: true            always
//   prompt               the newest user message that is more than client-added <tag>…</tag>
//                        blocks, with those blocks removed: what was typed
//   lastUserText         the newest user message's text
//   anyUserText          the text of some user message
//   developerText        `instructions` and every developer message
//   inputText            the whole `input` as JSON
//   lastIsToolOutput     the last input item is a tool call's output (true/false)
//   toolOutputText       the text of the last tool output in `input`
//   hasTools             the request has a non-empty tools array (true/false)
//   compact              a compaction request (true/false)
//   requestKind          request_kind of the x-codex-turn-metadata header
// `respond`:
//   { text }                                          an assistant message (a compaction's summary)
//   { function_call: { name, arguments } }            a tool call (arguments an object or a string)
//   { custom_tool_call: { name, input } }             a freeform tool call (apply_patch)
//   { items: [...] }                                  raw output items
//   { error: { status, message, code } }              an HTTP error
//   { failed: { code, message } }                     a response.failed event
//   input_tokens: N, or usage: {...}                  the usage reported (default: request bytes / 4),
//                                                     which drives the client's context accounting
// Strings may use {{cwd}} (the <cwd> the request states), {{seq}} (the request's number) and
// {{agent_id}} (the newest agent_id a tool output in `input` reported), and {{prompt1}},
// {{prompt2}}… (the groups the rule's `prompt` pattern captured).
import { fillIn, json, like, loadRules, newId, promptGroups, rulePicker, serve, serverOptions, sseEvent } from '../lib/fake-server.mjs';

const DEFAULT_SCRIPT = {
  rules: [
    { name: 'compact-summary', when: { compact: true }, respond: { text: 'Summary: the user said hello and hello.txt was written.' } },
    { name: 'title', when: { prompt: '^Generate a concise, single-line task title' }, respond: { text: 'Harness task' } },
    { name: 'after-tool', when: { lastIsToolOutput: true }, respond: { text: 'done' } },
    { name: 'first-turn', when: { any: true }, respond: { function_call: { name: 'exec_command', arguments: { cmd: 'echo hi > hello.txt && cat hello.txt' } } } },
  ],
};

const TAGGED = /<([a-z_][\w-]*)(\s[^>]*)?>[\s\S]*?<\/\1>/gi;

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof c === 'string' ? c : c?.text ?? '')).join('\n');
}

const isToolOutput = (item) => typeof item?.type === 'string' && /(^|_)call_output$/.test(item.type);

function outputTextOf(item) {
  const o = item.output;
  if (typeof o === 'string') return o;
  if (Array.isArray(o)) return textOf(o);
  if (o !== null && typeof o === 'object') return typeof o.content === 'string' ? o.content : JSON.stringify(o);
  return '';
}

function turnMetadata(headers) {
  try {
    return JSON.parse(headers['x-codex-turn-metadata'] ?? '{}');
  } catch {
    return {};
  }
}

/** What the rules look at, computed once per request. */
function requestView(body, headers, path) {
  const input = Array.isArray(body.input) ? body.input : [];
  const messages = (role) => input.filter((i) => i?.type === 'message' && i.role === role).map((i) => textOf(i.content));
  const users = messages('user');
  const typed = [...users].reverse().map((t) => t.replace(TAGGED, '').trim()).find((t) => t !== '') ?? '';
  const outputs = input.filter(isToolOutput);
  const kind = turnMetadata(headers).request_kind ?? null;
  return {
    prompt: typed,
    lastUser: users[users.length - 1] ?? '',
    users,
    developer: [body.instructions ?? '', ...messages('developer')].join('\n'),
    inputJson: JSON.stringify(input),
    lastIsToolOutput: isToolOutput(input[input.length - 1]),
    toolOutput: outputs.length > 0 ? outputTextOf(outputs[outputs.length - 1]) : null,
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
    kind,
    compact: path.endsWith('/compact') || /^compact/.test(kind ?? ''),
  };
}

function holds(when, v) {
  if (!like(when.prompt, v.prompt) || !like(when.lastUserText, v.lastUser) || !like(when.developerText, v.developer) || !like(when.inputText, v.inputJson)) return false;
  if (when.anyUserText !== undefined && !v.users.some((t) => like(when.anyUserText, t))) return false;
  if (when.lastIsToolOutput !== undefined && when.lastIsToolOutput !== v.lastIsToolOutput) return false;
  if (when.toolOutputText !== undefined && (v.toolOutput === null || !like(when.toolOutputText, v.toolOutput))) return false;
  if (when.hasTools !== undefined && when.hasTools !== v.hasTools) return false;
  if (when.compact !== undefined && when.compact !== v.compact) return false;
  if (when.requestKind !== undefined && !like(when.requestKind, v.kind ?? '')) return false;
  return true;
}

function placeholders(body, seq) {
  const input = JSON.stringify(body.input ?? []);
  const cwd = /<cwd>([^<]+)<\/cwd>/.exec(input);
  const agents = [...input.matchAll(/agent_id\\*"\s*:\s*\\*"([0-9a-f-]{36})/g)];
  return { cwd: cwd ? cwd[1] : process.cwd(), seq, agent_id: agents.length > 0 ? agents[agents.length - 1][1] : '' };
}

/** The output items a rule's `respond` stands for. */
function outputItems(respond) {
  if (Array.isArray(respond.items)) return respond.items;
  if (respond.function_call) {
    const { name, arguments: args } = respond.function_call;
    return [{ type: 'function_call', id: newId('fc'), call_id: newId('call'), name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) }];
  }
  if (respond.custom_tool_call) {
    const { name, input } = respond.custom_tool_call;
    return [{ type: 'custom_tool_call', id: newId('ctc'), call_id: newId('call'), name, input: input ?? '' }];
  }
  return [{ type: 'message', id: newId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: respond.text ?? 'ok', annotations: [] }] }];
}

function usage(respond, body) {
  const u = {
    input_tokens: respond.input_tokens ?? Math.ceil(JSON.stringify(body).length / 4),
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    ...(respond.usage ?? {}),
  };
  return { ...u, total_tokens: respond.usage?.total_tokens ?? u.input_tokens + u.output_tokens };
}

/** The streamed response: created, each item added (with its text delta) and done, then completed or failed. */
function stream(res, respond, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': newId('req') });
  let n = 0;
  const send = (type, data) => res.write(sseEvent(type, { sequence_number: n++, ...data }));
  const response = { id: newId('resp'), object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model, output: [] };
  send('response.created', { response: { ...response, status: 'in_progress' } });
  if (respond.failed) {
    send('response.failed', { response: { ...response, status: 'failed', error: { code: respond.failed.code ?? 'server_error', message: respond.failed.message ?? 'fake failure' } } });
    return res.end();
  }
  const items = outputItems(respond);
  items.forEach((item, output_index) => {
    send('response.output_item.added', { output_index, item: item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : item });
    if (item.type === 'message') {
      (item.content ?? []).forEach((c, content_index) => {
        if (c.type === 'output_text') send('response.output_text.delta', { item_id: item.id, output_index, content_index, delta: c.text });
      });
    }
    send('response.output_item.done', { output_index, item });
  });
  send('response.completed', { response: { ...response, status: 'completed', output: items, usage: usage(respond, body) } });
  res.end();
}

/** A remote compaction: the history Codex keeps, the typed prompt and a compaction item holding the summary. */
function compacted(res, respond, body, view) {
  const output = Array.isArray(respond.items)
    ? respond.items
    : [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: view.prompt || 'continue' }] },
        { type: 'compaction', encrypted_content: respond.text ?? 'Summary.' },
      ];
  json(res, 200, { output, usage: usage(respond, body) });
}

const options = serverOptions();
const pick = rulePicker(loadRules(options.script, DEFAULT_SCRIPT));

serve(options, (req, res) => {
  const body = req.body ?? {};
  if (req.method === 'POST' && /\/responses(\/compact)?$/.test(req.path)) {
    const view = requestView(body, req.headers, req.path);
    const rule = pick((when) => holds(when, view));
    req.log({ request_kind: view.kind, compact: view.compact, rule: rule.name, body });
    const respond = fillIn(rule.respond ?? {}, { ...placeholders(body, req.seq), ...promptGroups(rule.when?.prompt, view.prompt) });
    if (respond.error) {
      const e = respond.error;
      return json(res, e.status ?? 500, { error: { type: e.type ?? 'server_error', code: e.code ?? null, message: e.message ?? 'fake error' } });
    }
    if (req.path.endsWith('/compact')) return compacted(res, respond, body, view);
    return stream(res, respond, body);
  }
  if (req.method === 'GET' && req.path.endsWith('/models')) {
    req.log({});
    return json(res, 200, { models: [] });
  }
  req.log({ unknown: true, body });
  return json(res, 404, { error: { type: 'not_found', message: `fake-api: no route ${req.path}` } });
});
