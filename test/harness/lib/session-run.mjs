// What the two session drivers (claude/run.mjs, codex/run.mjs) share: their command line, the
// loopback-only network namespace, the output folder and its scratch repository, the fake API
// as a child process, one timed step of the real client, and summary.txt.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The command line: `valued` flags take a value (repeatable ones collect into arrays),
 * `switches` take none; `--` ends it and the rest goes to `extra`. Unknown flags throw.
 */
export function parseCommandLine(argv, { valued, repeated, switches }) {
  const out = { extra: [] };
  for (const flag of repeated) out[flag] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.extra = argv.slice(i + 1);
      break;
    }
    const flag = a.replace(/^-/, '');
    if (switches.includes(flag)) out[flag] = true;
    else if (valued.includes(flag) || repeated.includes(flag)) {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${a} needs a value`);
      if (repeated.includes(flag)) out[flag].push(value);
      else out[flag] = value;
    } else throw new Error(`unknown argument ${a}`);
  }
  return out;
}

/**
 * Runs this very script again inside a new network namespace holding only loopback, when
 * `unshare -n` works here and `-N` was not given, and exits with its status. Inside (or when
 * it cannot), returns whether the process is isolated. The client is pointed only at 127.0.0.1
 * either way.
 */
export function isolateNetwork(script, argv, marker) {
  if (process.env[marker] === '1') {
    const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { stdio: 'inherit' });
    if (up.status !== 0) fail('could not bring loopback up in the network namespace', 3);
    return true;
  }
  const dashdash = argv.indexOf('--');
  const own = dashdash === -1 ? argv : argv.slice(0, dashdash);
  if (own.includes('-N')) return false;
  const can = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status === 0 && spawnSync('ip', ['-V'], { stdio: 'ignore' }).status === 0;
  if (!can) {
    process.stderr.write('harness: no network namespace here (unshare -n or ip missing); the client still talks only to 127.0.0.1\n');
    return false;
  }
  const r = spawnSync('unshare', ['-n', process.execPath, script, ...argv], { stdio: 'inherit', env: { ...process.env, [marker]: '1' } });
  process.exit(r.status ?? 1);
}

export function fail(message, code = 2) {
  process.stderr.write(`harness: ${message}\n`);
  process.exit(code);
}

/** The output folder, absolute, created and emptied (`-o`), or a new temp folder. */
export function outputFolder(out, prefix) {
  if (!out) return mkdtempSync(join(process.env.TMPDIR || tmpdir(), prefix));
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
  return dir;
}

/** The scratch repository of a run: a template's files (dotfiles too), on `main`, a fixed identity, one commit. */
export function scratchRepository(dir, template) {
  mkdirSync(dir, { recursive: true });
  if (template) cpSync(template, dir, { recursive: true });
  const git = (...args) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) fail(`git ${args.join(' ')} in the scratch repository failed: ${r.stderr.trim()}`, 3);
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'harness@example.invalid');
  git('config', 'user.name', 'harness');
  if (!existsSync(join(dir, 'README.md'))) writeFileSync(join(dir, 'README.md'), '# scratch repo\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return dir;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Starts a fake API (`server`, a fake-api.mjs) as a child process logging to
 * `out/requests.jsonl`, and waits for its port. `stop()` ends it.
 */
export function startFakeApi(server, out, script, lifetimeSec) {
  const err = openSync(join(out, 'fake-api.err'), 'a');
  const args = [server, '--port', '0', '--port-file', join(out, 'port'), '--log', join(out, 'requests.jsonl'), '--lifetime', String(lifetimeSec)];
  if (script) args.push('--script', script);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', err] });
  closeSync(err);
  let exited = false;
  child.on('exit', () => (exited = true));
  for (let i = 0; i < 200; i++) {
    const port = existsSync(join(out, 'port')) ? readFileSync(join(out, 'port'), 'utf8').trim() : '';
    if (port !== '') return { port: Number(port), stop: () => child.kill('SIGTERM') };
    if (exited || child.exitCode !== null) break;
    sleep(50);
  }
  child.kill('SIGKILL');
  fail(`the fake API did not start (see ${join(out, 'fake-api.err')})`, 3);
}

/**
 * `env` without the variables `drop` matches, plus `set`, plus "K=V K2=V2" from the variable
 * named `extraName` (how a caller adds variables for the client past the drop).
 */
export function clientEnv(env, drop, set, extraName) {
  const out = {};
  for (const [k, v] of Object.entries(env)) if (!drop.test(k) && k !== extraName) out[k] = v;
  Object.assign(out, set);
  for (const kv of (env[extraName] ?? '').split(/\s+/).filter(Boolean)) {
    const eq = kv.indexOf('=');
    if (eq > 0) out[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return out;
}

/**
 * One step: `cmd args` in `cwd` under coreutils `timeout` (TERM after `timeoutSec`, KILL 5 s
 * later), stdout and stderr to files, stdin empty. Returns the exit code and the time taken.
 */
export function timedStep(cmd, args, { cwd, env, timeoutSec, stdout, stderr }) {
  const o = openSync(stdout, 'w');
  const e = openSync(stderr, 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('timeout', ['-k', '5', String(timeoutSec), cmd, ...args], { cwd, env, stdio: ['ignore', o, e] });
  const ms = Number((process.hrtime.bigint() - t0) / 1_000_000n);
  closeSync(o);
  closeSync(e);
  return { rc: r.status ?? 1, ms };
}

/** Appends a line to `out/summary.txt`. */
export function summaryLine(out, line) {
  appendFileSync(join(out, 'summary.txt'), `${line}\n`);
}

/** The lines of a file, or 0 when it is missing. */
export function lineCount(file) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}
