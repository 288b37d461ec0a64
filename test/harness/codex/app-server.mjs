#!/usr/bin/env node
// Talks to `codex app-server` (JSON-RPC 2.0, one message per line on stdio) for what
// `codex exec` cannot do, in the current folder:
//
//   app-server.mjs CODEX compact THREAD_ID [-c K=V]...   compact the thread (thread/compact/start)
//   app-server.mjs CODEX hooks [-c K=V]...               list the hooks Codex discovered (hooks/list)
//   app-server.mjs CODEX trust [-c K=V]...               trust every discovered hook, as /hooks does:
//                                                        hooks.state.<key>.trusted_hash = its hash
//
// Prints every message, both ways, as {"dir":"send"|"recv","msg":…} lines; exit 0 when done.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [codex, verb, ...rest] = process.argv.slice(2);
const thread = verb === 'compact' ? rest.shift() : undefined;
if (!codex || !['compact', 'hooks', 'trust'].includes(verb) || (verb === 'compact' && !thread)) {
  process.stderr.write('usage: app-server.mjs CODEX compact THREAD_ID | hooks | trust [-c K=V]...\n');
  process.exit(2);
}

const server = spawn(codex, ['app-server', ...rest], { stdio: ['pipe', 'pipe', 'inherit'] });
const print = (dir, msg) => process.stdout.write(`${JSON.stringify({ dir, msg })}\n`);
const send = (msg) => {
  print('send', msg);
  server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
};
const replies = new Map();
const listeners = new Set();
let lastId = 0;

function call(method, params) {
  const id = ++lastId;
  send({ id, method, params });
  return new Promise((resolve, reject) => replies.set(id, { resolve, reject, method }));
}
function notification(test) {
  return new Promise((resolve) => {
    const listener = (msg) => {
      if (!test(msg)) return;
      listeners.delete(listener);
      resolve(msg);
    };
    listeners.add(listener);
  });
}

createInterface({ input: server.stdout }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  print('recv', msg);
  const waiting = msg.id !== undefined ? replies.get(msg.id) : undefined;
  if (waiting && !msg.method) {
    replies.delete(msg.id);
    if (msg.error) waiting.reject(new Error(`${waiting.method}: ${msg.error.message}`));
    else waiting.resolve(msg.result);
  } else if (msg.id !== undefined && msg.method) {
    // The server asks something (an approval): say no, so nothing waits on us.
    send({ id: msg.id, result: { decision: 'decline' } });
  } else for (const listener of [...listeners]) listener(msg);
});

async function work() {
  await call('initialize', { clientInfo: { name: 'capsule-harness', version: '1.0.0' }, capabilities: { experimentalApi: true } });
  send({ method: 'initialized' });
  if (verb === 'compact') {
    await call('thread/resume', { threadId: thread, cwd: process.cwd() });
    const done = notification((m) => m.method === 'thread/compacted' || m.method === 'turn/completed');
    await call('thread/compact/start', { threadId: thread });
    await done;
    await new Promise((r) => setTimeout(r, 1500)); // the hooks after a compaction, and the rollout's last writes
    return;
  }
  const listed = await call('hooks/list', { cwds: [process.cwd()] });
  if (verb === 'hooks') return;
  const state = {};
  for (const hook of (listed.data ?? []).flatMap((entry) => entry.hooks ?? [])) {
    if (!hook.isManaged && hook.trustStatus !== 'trusted') state[hook.key] = { trusted_hash: hook.currentHash };
  }
  if (Object.keys(state).length > 0) await call('config/batchWrite', { edits: [{ keyPath: 'hooks.state', value: state, mergeStrategy: 'upsert' }] });
  process.stderr.write(`app-server.mjs: ${Object.keys(state).length} hook(s) trusted\n`);
}

const deadline = setTimeout(() => {
  process.stderr.write(`app-server.mjs: ${verb} took too long\n`);
  server.kill('SIGKILL');
  process.exit(1);
}, Number(process.env.CXH_APP_SERVER_TIMEOUT_MS ?? 45_000));

// End of stdin lets the server stop by itself (its SessionEnd hooks, the thread's writer lock
// released), so the next `codex exec resume` of the thread finds it free.
function end(code) {
  clearTimeout(deadline);
  const force = setTimeout(() => server.kill('SIGKILL'), 10_000);
  server.on('exit', () => {
    clearTimeout(force);
    process.exit(code);
  });
  server.stdin.end();
}
work().then(
  () => end(0),
  (e) => {
    process.stderr.write(`app-server.mjs: ${e.message}\n`);
    end(1);
  },
);
