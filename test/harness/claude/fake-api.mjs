#!/usr/bin/env node
// A scripted fake of the Anthropic Messages API, for the real Claude Code client on loopback.
//
//   node fake-api.mjs [--port 0] [--port-file F] [--log requests.jsonl] [--script rules.json] [--lifetime S] [--delay-ms N]
//
// --delay-ms: each /v1/messages answer waits N ms first, a model's latency for benches (default 0: at once).
//
// Claude Code 2.1 sends `POST /v1/messages?beta=true` with `stream: true` for everything: turns,
// titles and other side requests (no tools), and compaction (the compact prompt is a text block
// appended to the last user message, after any tool_result, with tools still sent). Hook context
// travels inside <system-reminder> blocks of user messages, or as role:"system" messages.
//
// `when` (all given must hold; patterns are case-insensitive regular expressions):
//   any: true            always
//   prompt               the last user message's text without its <system-reminder> blocks
//   lastUserText         the last user message's text (text blocks and string content)
//   anyUserText          the text of some user message
//   systemText           the system prompt's text
//   lastIsToolResult     the last user message carries a tool_result block (true/false)
//   toolResultText       the text of the last tool_result of the last user message
//   hasTools             the request has a non-empty tools array (true/false)
//   maxTokensAtMost      max_tokens <= N
// `respond`:
//   { text }                                   one text block, end_turn
//   { tool_use: { name, input, preamble? } }   a tool call (after an optional text block), stop tool_use
//   { content: [blocks], stop_reason? }        raw blocks: text, tool_use, thinking
//   { error: { status, type, message } }       an HTTP error
//   input_tokens: N                            the usage reported (default: request bytes / 4),
//                                              which drives the client's context accounting
// Strings may use {{cwd}}: the "Primary working directory" the request states; and {{prompt1}},
// {{prompt2}}…: the groups the rule's `prompt` pattern captured.
import { fillIn, json, like, loadRules, newId, promptGroups, rulePicker, serve, serverOptions, sseEvent } from '../lib/fake-server.mjs';

const COMPACT_PROMPT = 'Respond with TEXT ONLY|summary of the conversation|create a detailed summary';

const DEFAULT_SCRIPT = {
  rules: [
    { name: 'compact-summary', when: { lastUserText: COMPACT_PROMPT }, respond: { text: '<summary>The user said hello; hello.txt was written.</summary>' } },
    { name: 'side-request', when: { hasTools: false }, respond: { text: '{"title":"Harness session","isNewTopic":false}' } },
    { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
    { name: 'first-turn', when: { any: true }, respond: { tool_use: { name: 'Bash', input: { command: 'echo hi > hello.txt && cat hello.txt', description: 'write hello.txt' } } } },
  ],
};

/** The text of a message's content: string content, text blocks, and (when asked) tool_result text. */
function textOf(content, withToolResults = false) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts = [];
  for (const block of content) {
    if (block?.type === 'text') parts.push(block.text ?? '');
    else if (withToolResults && block?.type === 'tool_result') parts.push(textOf(block.content, true));
  }
  return parts.join('\n');
}

function systemTextOf(system) {
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.map((b) => b?.text ?? '').join('\n') : '';
}

/** What the rules look at, computed once per request. */
function requestView(body) {
  const users = (body.messages ?? []).filter((m) => m?.role === 'user');
  const last = users[users.length - 1]?.content;
  const toolResults = Array.isArray(last) ? last.filter((b) => b?.type === 'tool_result') : [];
  const lastText = textOf(last);
  return {
    lastText,
    prompt: lastText.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ''),
    userTexts: users.map((m) => textOf(m.content)),
    system: systemTextOf(body.system),
    isToolResult: toolResults.length > 0,
    toolResult: toolResults.length > 0 ? textOf(toolResults[toolResults.length - 1].content, true) : null,
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
    maxTokens: body.max_tokens,
  };
}

function holds(when, v) {
  if (!like(when.prompt, v.prompt) || !like(when.lastUserText, v.lastText) || !like(when.systemText, v.system)) return false;
  if (when.anyUserText !== undefined && !v.userTexts.some((t) => like(when.anyUserText, t))) return false;
  if (when.lastIsToolResult !== undefined && when.lastIsToolResult !== v.isToolResult) return false;
  if (when.toolResultText !== undefined && (v.toolResult === null || !like(when.toolResultText, v.toolResult))) return false;
  if (when.hasTools !== undefined && when.hasTools !== v.hasTools) return false;
  if (when.maxTokensAtMost !== undefined && !(v.maxTokens <= when.maxTokensAtMost)) return false;
  return true;
}

/** The working directory the client names in its request, for {{cwd}}. */
function statedCwd(body) {
  const found = /Primary working directory: ([^\\"\n]+)/.exec(JSON.stringify(body));
  return found ? found[1].trim() : process.cwd();
}

/** The assistant message a rule's `respond` stands for. */
function message(respond, body) {
  let content;
  let stop = respond.stop_reason;
  if (Array.isArray(respond.content)) content = respond.content.map((b) => (b.type === 'tool_use' && !b.id ? { ...b, id: newId('toolu') } : b));
  else if (respond.tool_use) {
    content = respond.tool_use.preamble ? [{ type: 'text', text: respond.tool_use.preamble }] : [];
    content.push({ type: 'tool_use', id: newId('toolu'), name: respond.tool_use.name, input: respond.tool_use.input ?? {} });
    stop ??= 'tool_use';
  } else content = [{ type: 'text', text: respond.text ?? 'ok' }];
  return {
    id: newId('msg'),
    type: 'message',
    role: 'assistant',
    model: body.model ?? 'claude-fake',
    content,
    stop_reason: stop ?? 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: respond.input_tokens ?? Math.ceil(JSON.stringify(body).length / 4), output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/** The message as the stream the client reads: start, each block as start/delta/stop, the stop reason, the end. */
function stream(res, msg) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': newId('req') });
  res.write(sseEvent('message_start', { message: { ...msg, content: [], stop_reason: null, usage: { ...msg.usage, output_tokens: 1 } } }));
  msg.content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      res.write(sseEvent('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      res.write(sseEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) } }));
    } else if (block.type === 'thinking') {
      res.write(sseEvent('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      res.write(sseEvent('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking ?? '' } }));
      res.write(sseEvent('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature ?? 'fake-signature' } }));
    } else {
      res.write(sseEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      res.write(sseEvent('content_block_delta', { index, delta: { type: 'text_delta', text: block.text ?? '' } }));
    }
    res.write(sseEvent('content_block_stop', { index }));
  });
  res.write(sseEvent('message_delta', { delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: msg.usage.output_tokens } }));
  res.write(sseEvent('message_stop', {}));
  res.end();
}

const options = serverOptions();
const pick = rulePicker(loadRules(options.script, DEFAULT_SCRIPT));

serve(options, (req, res) => {
  const body = req.body ?? {};
  if (req.method === 'POST' && req.path === '/v1/messages') {
    const view = requestView(body);
    const rule = pick((when) => holds(when, view));
    req.log({ rule: rule.name, stream: body.stream === true, body });
    const respond = fillIn(rule.respond ?? {}, { cwd: statedCwd(body), ...promptGroups(rule.when?.prompt, view.prompt) });
    if (respond.error) {
      const e = respond.error;
      return json(res, e.status ?? 500, { type: 'error', error: { type: e.type ?? 'api_error', message: e.message ?? 'fake error' } });
    }
    const msg = message(respond, body);
    const answer = () => (body.stream ? stream(res, msg) : json(res, 200, msg));
    return options.delayMs > 0 ? void setTimeout(answer, options.delayMs) : answer();
  }
  if (req.method === 'POST' && req.path === '/v1/messages/count_tokens') {
    req.log({ body });
    return json(res, 200, { input_tokens: Math.ceil(req.raw.length / 4) });
  }
  if (req.path === '/api/hello') {
    req.log({});
    return json(res, 200, { message: 'hello' });
  }
  if (req.method === 'GET' && req.path === '/v1/models') {
    req.log({});
    return json(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
  }
  req.log({ unknown: true, body });
  return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake-api: no route ${req.path}` } });
});
