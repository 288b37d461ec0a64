#!/usr/bin/env node
// One step of a session in Codex's interactive TUI, under tmux (`/clear` and `/compact` exist
// only there).
//
//   tui.mjs CODEX SESSION_ID|"" OUT_PREFIX 'INPUT;;INPUT;;…' [CLIENT ARGS]...
//
// Resumes SESSION_ID (`codex resume ID`), or starts a new session when it is empty. Each INPUT
// is typed and submitted, then the step waits until the TUI is idle again (at most
// CXH_TUI_IDLE_S seconds, default 30): "TEXT<&>" goes on after 2 s without waiting,
// "<key:NAME>" presses a tmux key instead of typing. Then /quit. Writes OUT_PREFIX.screen-N.txt
// after each input and OUT_PREFIX.screen.txt at the end, and prints the session the TUI ended
// in (a new one after /clear) as a {"type":"thread.started","thread_id":…} line, the event
// `codex exec --json` prints, so the driver follows it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [codex, resumeId, prefix, inputs, ...clientArgs] = process.argv.slice(2);
const idleSec = Number(process.env.CXH_TUI_IDLE_S ?? 30);
const socket = `capsule-tui-${process.pid}`;
const tmux = (...args) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'tui').stdout ?? '';
const alive = () => tmux('has-session', '-t', 'tui').status === 0;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Idle: the composer is shown and no turn runs ("esc to interrupt" is gone). */
function waitIdle(seconds) {
  const end = Date.now() + seconds * 1000;
  sleep(1000);
  while (Date.now() < end && alive()) {
    const s = screen();
    if (!s.includes('esc to interrupt') && /for shortcuts|Ask Codex/.test(s)) return true;
    sleep(500);
  }
  return false;
}

function rollouts() {
  const found = [];
  const walk = (dir) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/^rollout-.*\.jsonl$/.test(name)) found.push(path);
    }
  };
  walk(join(process.env.CODEX_HOME ?? '', 'sessions'));
  return found;
}

const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const before = new Set(rollouts());
const command = [codex, ...(resumeId ? ['resume', resumeId] : []), '--no-alt-screen', ...clientArgs].map(quote).join(' ');
tmux('new-session', '-d', '-s', 'tui', '-x', '200', '-y', '60', `${command}; echo "TUI-EXITED rc=$?"; sleep 2`);
if (!waitIdle(idleSec)) {
  process.stderr.write(`tui: not ready after ${idleSec}s\n`);
  writeFileSync(`${prefix}.screen.txt`, screen());
  tmux('kill-server');
  process.exit(1);
}

const items = inputs.split(';;').map((s) => s.trim()).filter(Boolean);
items.forEach((input, k) => {
  const key = /^<key:(.+)>$/.exec(input);
  if (key) tmux('send-keys', '-t', 'tui', key[1]);
  else {
    const noWait = input.endsWith('<&>');
    const text = noWait ? input.slice(0, -3) : input;
    tmux('send-keys', '-t', 'tui', '-l', text);
    sleep(300);
    tmux('send-keys', '-t', 'tui', 'Enter');
    // A slash command first opens its completion list: that Enter picks it, another runs it.
    if (text.startsWith('/')) {
      sleep(500);
      if (screen().trimEnd().split('\n').slice(-3).some((line) => line.includes(text))) tmux('send-keys', '-t', 'tui', 'Enter');
    }
    if (noWait) {
      sleep(2000);
      writeFileSync(`${prefix}.screen-${k + 1}.txt`, screen());
      return;
    }
  }
  if (!waitIdle(idleSec)) process.stderr.write(`tui: still busy after ${JSON.stringify(input)}\n`);
  writeFileSync(`${prefix}.screen-${k + 1}.txt`, screen());
});

tmux('send-keys', '-t', 'tui', '-l', '/quit');
sleep(300);
tmux('send-keys', '-t', 'tui', 'Enter');
for (let i = 0; i < 40 && !screen().includes('TUI-EXITED'); i++) sleep(250);
const last = screen();
writeFileSync(`${prefix}.screen.txt`, last);
tmux('kill-server');

const fresh = rollouts().filter((p) => !before.has(p)).sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
const session = fresh.length > 0 ? /([0-9a-f-]{36})\.jsonl$/.exec(fresh[fresh.length - 1])?.[1] : resumeId;
if (session) process.stdout.write(`${JSON.stringify({ type: 'thread.started', thread_id: session, source: 'tui' })}\n`);
const rc = /TUI-EXITED rc=(\d+)/.exec(last);
process.exit(rc ? Number(rc[1]) : 1);
