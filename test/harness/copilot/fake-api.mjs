#!/usr/bin/env node
// A scripted fake of the OpenAI Chat Completions API, for the real GitHub Copilot CLI on loopback.
//
//   node fake-api.mjs [--port 0] [--port-file F] [--log requests.jsonl] [--script rules.json] [--lifetime S]
//
// Copilot CLI 1.0.102 in its bring-your-own-key mode (COPILOT_PROVIDER_BASE_URL=http://…/v1,
// COPILOT_OFFLINE=true) speaks the Chat Completions wire: `POST /v1/chat/completions`, streamed
// with `stream_options.include_usage`, for turns and for a compaction's summary. Hook context
// (sessionStart, userPromptSubmitted) arrives inside the user messages; the client wraps what
// it adds itself in tags (<current_datetime>…), which the `prompt` condition strips.
//
// `when` (all given must hold; patterns are case-insensitive regular expressions):
//   any: true            always
//   prompt               the newest user message with its <tag>…</tag> blocks removed: what was typed
//   lastUserText         the newest user message's whole text
//   anyUserText          the text of some user message
//   systemText           every system message
//   messagesText         the whole `messages` array as JSON
//   lastIsToolOutput     the last message is a tool result (true/false)
//   toolOutputText       the text of the last tool result
//   hasTools             the request has a non-empty tools array (true/false)
// `respond`:
//   { text }                                   an assistant message
//   { tool_call: { name, arguments } }         a function call (arguments an object or a string)
//   { error: { status, message } }             an HTTP error
//   input_tokens: N                            the prompt_tokens reported (default: request bytes / 4)
// Strings may use {{seq}} (the request's number) and {{prompt1}}, {{prompt2}}… (the groups the
// rule's `prompt` pattern captured).
import { fillIn, json, like, loadRules, newId, promptGroups, rulePicker, serve, serverOptions } from '../lib/fake-server.mjs';

const DEFAULT_SCRIPT = {
  rules: [
    { name: 'after-tool', when: { lastIsToolOutput: true }, respond: { text: 'done' } },
    { name: 'first-turn', when: { any: true }, respond: { tool_call: { name: 'bash', arguments: { command: 'echo hi > hello.txt && cat hello.txt', description: 'write hello.txt' } } } },
  ],
};

const TAGGED = /<([a-z_][\w-]*)(\s[^>]*)?>[\s\S]*?<\/\1>/gi;

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof c === 'string' ? c : c?.text ?? '')).join('\n');
}

/** What the rules look at, computed once per request. */
function requestView(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const of = (role) => messages.filter((m) => m?.role === role).map((m) => textOf(m.content));
  const users = of('user');
  const tools = of('tool');
  const last = messages[messages.length - 1];
  return {
    prompt: [...users].reverse().map((t) => t.replace(TAGGED, '').trim()).find((t) => t !== '') ?? '',
    lastUser: users[users.length - 1] ?? '',
    users,
    system: of('system').join('\n'),
    messagesJson: JSON.stringify(messages),
    lastIsToolOutput: last?.role === 'tool',
    toolOutput: tools.length > 0 ? tools[tools.length - 1] : null,
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
  };
}

function holds(when, v) {
  if (!like(when.prompt, v.prompt) || !like(when.lastUserText, v.lastUser) || !like(when.systemText, v.system) || !like(when.messagesText, v.messagesJson)) return false;
  if (when.anyUserText !== undefined && !v.users.some((t) => like(when.anyUserText, t))) return false;
  if (when.lastIsToolOutput !== undefined && when.lastIsToolOutput !== v.lastIsToolOutput) return false;
  if (when.toolOutputText !== undefined && (v.toolOutput === null || !like(when.toolOutputText, v.toolOutput))) return false;
  if (when.hasTools !== undefined && when.hasTools !== v.hasTools) return false;
  return true;
}

/** The streamed completion: the role, the text or the tool call, then the finish and the usage. */
function stream(res, respond, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = newId('chatcmpl');
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices, extra = {}) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra })}\n\n`);
  let finish = 'stop';
  if (respond.tool_call) {
    const { name, arguments: args } = respond.tool_call;
    const call = { index: 0, id: newId('call'), type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) } };
    chunk([{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: null }]);
    finish = 'tool_calls';
  } else {
    chunk([{ index: 0, delta: { role: 'assistant', content: respond.text ?? 'ok' }, finish_reason: null }]);
  }
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  const prompt = respond.input_tokens ?? Math.ceil(JSON.stringify(body).length / 4);
  chunk([], { usage: { prompt_tokens: prompt, completion_tokens: 10, total_tokens: prompt + 10 } });
  res.end('data: [DONE]\n\n');
}

const options = serverOptions();
const pick = rulePicker(loadRules(options.script, DEFAULT_SCRIPT));

serve(options, (req, res) => {
  const body = req.body ?? {};
  if (req.method === 'POST' && req.path.endsWith('/chat/completions')) {
    const view = requestView(body);
    const rule = pick((when) => holds(when, view));
    req.log({ rule: rule.name, body });
    const respond = fillIn(rule.respond ?? {}, { seq: req.seq, ...promptGroups(rule.when?.prompt, view.prompt) });
    if (respond.error) return json(res, respond.error.status ?? 500, { error: { type: 'server_error', message: respond.error.message ?? 'fake error' } });
    return stream(res, respond, body);
  }
  if (req.method === 'GET' && req.path.endsWith('/models')) {
    req.log({});
    return json(res, 200, { object: 'list', data: [] });
  }
  req.log({ unknown: true, body });
  return json(res, 404, { error: { type: 'not_found', message: `fake-api: no route ${req.path}` } });
});
