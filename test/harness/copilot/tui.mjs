#!/usr/bin/env node
// One session of the interactive GitHub Copilot CLI under tmux, prompt by prompt (`/clear` and
// `/compact` exist only there).
//
//   tui.mjs COPILOT OUT_PREFIX 'INPUT;;INPUT;;…' [CLIENT ARGS]...
//
// Starts the client in the current directory with the environment it was given (HOME,
// COPILOT_PROVIDER_* and COPILOT_OFFLINE: the caller's), types and submits each INPUT, then
// waits until the turn has run and the client is idle again (at most CPH_TUI_IDLE_S seconds,
// default 40): idle is the footer's "/ commands" with no "esc interrupt" of a running turn,
// for 2 s. A slash command runs no turn: a few seconds' wait, then idle. Then /exit.
// Writes OUT_PREFIX.screen-N.txt after each input and OUT_PREFIX.screen.txt at the end. The
// folder must be trusted ahead (`trustedFolders` in ~/.copilot/config.json), or the trust
// dialog waits for ever.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [copilot, prefix, inputs, ...clientArgs] = process.argv.slice(2);
const idleSec = Number(process.env.CPH_TUI_IDLE_S ?? 40);
const socket = `capsule-copilot-${process.pid}`;
const tmux = (...args) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'tui').stdout ?? '';
const alive = () => tmux('has-session', '-t', 'tui').status === 0;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const footer = () => screen().trimEnd().split('\n').slice(-3).join('\n');

const busy = () => footer().includes('esc interrupt');
const idle = () => !busy() && footer().includes('/ commands');

/**
 * Idle again after a submitted prompt: the turn is first seen running (within 15 s; the
 * sessionStart hooks run before it starts), then the footer stays idle for 2 s (the client
 * shows the idle footer between a turn's requests and while its agentStop hooks run).
 */
function waitIdle(seconds, { sawTurn = true } = {}) {
  const end = Date.now() + seconds * 1000;
  const seen = Date.now() + 15_000;
  let saw = sawTurn;
  while (!saw && Date.now() < seen && alive()) {
    if (busy()) saw = true;
    else sleep(200);
  }
  let quietSince = null;
  while (Date.now() < end && alive()) {
    if (idle()) {
      quietSince ??= Date.now();
      if (Date.now() - quietSince >= 2000) return true;
    } else quietSince = null;
    sleep(250);
  }
  return false;
}

const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const command = [copilot, ...clientArgs].map(quote).join(' ');
tmux('new-session', '-d', '-s', 'tui', '-x', '200', '-y', '60', `${command}; echo "TUI-EXITED rc=$?"; sleep 2`);
if (!waitIdle(idleSec, { sawTurn: true })) {
  process.stderr.write(`tui: not ready after ${idleSec}s\n`);
  writeFileSync(`${prefix}.screen.txt`, screen());
  tmux('kill-server');
  process.exit(1);
}

const items = inputs.split(';;').map((s) => s.trim()).filter(Boolean);
items.forEach((input, k) => {
  tmux('send-keys', '-t', 'tui', '-l', input);
  sleep(500);
  tmux('send-keys', '-t', 'tui', 'Enter');
  if (input.startsWith('/')) {
    // A slash command may open its completion list first: that Enter picks it, another runs it.
    sleep(800);
    if (footer().includes(input)) tmux('send-keys', '-t', 'tui', 'Enter');
    sleep(3000);
  }
  if (!waitIdle(idleSec, { sawTurn: input.startsWith('/') })) process.stderr.write(`tui: still busy after ${JSON.stringify(input)}\n`);
  writeFileSync(`${prefix}.screen-${k + 1}.txt`, screen());
});

tmux('send-keys', '-t', 'tui', '-l', '/exit');
sleep(500);
tmux('send-keys', '-t', 'tui', 'Enter');
for (let i = 0; i < 60 && !screen().includes('TUI-EXITED'); i++) sleep(250);
const last = screen();
writeFileSync(`${prefix}.screen.txt`, last);
tmux('kill-server');
const rc = /TUI-EXITED rc=(\d+)/.exec(last);
process.exit(rc ? Number(rc[1]) : 1);
