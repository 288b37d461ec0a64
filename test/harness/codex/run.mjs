#!/usr/bin/env node
// One scripted session of the real Codex CLI, offline, against fake-api.mjs.
//
//   run.sh [-o OUT] [-P PLUGIN_DIR]... [-H HOOKS_JSON] [-J PROJECT_HOOKS_JSON] [-S SCRIPT.json]
//          [-T TEMPLATE_DIR | -R REPO] [-c KEY=VALUE]... [-t STEP_TIMEOUT_S] [-X|-A] [-N] [-p PROMPT]...
//          [-- CLIENT ARGS]
//
//   -o  the output folder (emptied first; default: a new temp folder)
//   -P  a plugin folder, installed through a local marketplace (Codex copies it) (repeatable)
//   -H  a hooks.json for the user layer ($CODEX_HOME/hooks.json)
//   -J  a hooks.json for the project layer (<repo>/.codex/hooks.json; the project is trusted)
//   -S  the fake API's rules (default: its built-in exec_command-then-"done" script)
//   -T  files copied into the scratch repository before its first commit
//   -R  an existing repository to run in instead of a scratch one (used as it is: no copy, no
//       commit; other clients may be working in it too). OUT's repo/ is then not made
//   -c  a config override passed as `-c KEY=VALUE` to every codex call (repeatable)
//   -t  seconds each step may take (default 60)
//   -X  hooks stay untrusted (no --dangerously-bypass-hook-trust, nothing trusted)
//   -A  no bypass flag either, but every discovered hook trusted first, as /hooks does
//   -N  no network namespace (by default the run re-executes itself under `unshare -n`)
//   -p  one step each (default: one step "hello"): the first `codex exec`, later ones
//       `codex exec resume ID`; "@new:TEXT" starts another session, "@last:TEXT" resumes with
//       --last, "@compact" compacts through app-server, "@tui:A;;B;;…" types into the TUI (tui.mjs)
//
// Environment: CODEX_BIN (the real client; default `codex` on PATH), CXH_MODEL (default
// gpt-5.5, whose tools are exec_command and apply_patch), CXH_SANDBOX_ARGS (default
// --dangerously-bypass-approvals-and-sandbox), CXH_EXTRA_ENV ("K=V …" for the client, set after
// the caller's CODEX_*/OPENAI_* variables are dropped), CXH_TUI_IDLE_S (see tui.mjs).
//
// OUT holds: requests.jsonl, step-N.jsonl (`--json` events, or the TUI/app-server step's
// output), step-N.err, step-N.screen*.txt (TUI screens), rollout-N.jsonl (each session's
// rollout, oldest first), home/ repo/ tmp/ (HOME with .codex/, the repository, the client's
// TMPDIR), summary.txt (each step's command, then `step N: rc=R duration_ms=D session=ID`).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientEnv, fail, isolateNetwork, lineCount, outputFolder, parseCommandLine, scratchRepository, startFakeApi, summaryLine, timedStep } from '../lib/session-run.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
if (argv.includes('-h') || argv.includes('--help')) {
  process.stdout.write('usage: run.sh [-o OUT] [-P PLUGIN]... [-H HOOKS] [-J HOOKS] [-S SCRIPT] [-T TEMPLATE | -R REPO] [-c K=V]... [-t SECONDS] [-X|-A] [-N] [-p PROMPT]... [-- CLIENT ARGS]\n');
  process.exit(0);
}
const isolated = isolateNetwork(fileURLToPath(import.meta.url), argv, 'CAPSULE_HARNESS_NETNS');

let opts;
try {
  opts = parseCommandLine(argv, { valued: ['o', 'H', 'J', 'S', 'T', 'R', 't'], repeated: ['P', 'c', 'p'], switches: ['X', 'A', 'N'] });
} catch (e) {
  fail(e.message);
}
const codex = process.env.CODEX_BIN ? resolve(process.env.CODEX_BIN) : 'codex';
const prompts = opts.p.length > 0 ? opts.p : ['hello'];
const stepSec = Number(opts.t ?? 60);
const config = opts.c.flatMap((kv) => ['-c', kv]);
// The plugins feature starts a curated-plugin sync over the network on every launch: off unless a plugin needs it.
if (opts.P.length === 0 && !opts.c.some((kv) => kv.startsWith('features.plugins='))) config.push('-c', 'features.plugins=false');
const sandbox = (process.env.CXH_SANDBOX_ARGS ?? '--dangerously-bypass-approvals-and-sandbox').split(/\s+/).filter(Boolean);
const bypass = !opts.X && !opts.A ? ['--dangerously-bypass-hook-trust'] : [];

const out = outputFolder(opts.o, 'codex-harness-');
// Codex makes no PATH helpers when CODEX_HOME is under the temp dir: TMPDIR is a sibling of home/.
const home = join(out, 'home');
const codexHome = join(home, '.codex');
const tmp = join(out, 'tmp');
mkdirSync(codexHome, { recursive: true });
mkdirSync(tmp, { recursive: true });
if (opts.R && (opts.T || !existsSync(join(resolve(opts.R), '.git')))) fail(opts.T ? '-R and -T exclude each other' : `-R ${opts.R} is not a git repository`);
const repo = opts.R ? resolve(opts.R) : join(out, 'repo');
if (opts.J) {
  mkdirSync(join(repo, '.codex'), { recursive: true });
  copyFileSync(resolve(opts.J), join(repo, '.codex', 'hooks.json'));
}
if (!opts.R) scratchRepository(repo, opts.T && resolve(opts.T));
if (opts.H) copyFileSync(resolve(opts.H), join(codexHome, 'hooks.json'));

const fake = startFakeApi(join(HERE, 'fake-api.mjs'), out, opts.S && resolve(opts.S), stepSec * (prompts.length + 2) + 30);
writeFileSync(
  join(codexHome, 'config.toml'),
  [
    '# written by the capsule test harness',
    `model = ${JSON.stringify(process.env.CXH_MODEL ?? 'gpt-5.5')}`,
    'model_provider = "fake"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "http://127.0.0.1:${fake.port}/v1"`,
    'wire_api = "responses"',
    'env_key = "CXH_FAKE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '# Without it the TUI opens a "meet the newer model" dialog that takes the first input.',
    '[notice.model_migrations]',
    '"gpt-5.5" = "gpt-6-sol"',
    '',
    '[otel]',
    'exporter = "none"',
    'metrics_exporter = "none"',
    'trace_exporter = "none"',
    '',
    `[projects.${JSON.stringify(repo)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n'),
);

const env = clientEnv(process.env, /^(CODEX_|OPENAI_)/, { HOME: home, CODEX_HOME: codexHome, TMPDIR: tmp, CXH_FAKE_API_KEY: 'sk-fake' }, 'CXH_EXTRA_ENV');
const setup = (args, log) => {
  const r = spawnSync('timeout', ['-k', '5', String(stepSec), codex, ...args, ...config], { cwd: repo, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  writeFileSync(log, `${r.stdout ?? ''}${r.stderr ?? ''}`, { flag: 'a' });
  return r.status === 0;
};

// Plugins: one local marketplace holding a copy of each.
if (opts.P.length > 0) {
  const market = join(out, 'marketplace');
  mkdirSync(join(market, '.agents', 'plugins'), { recursive: true });
  const names = opts.P.map((p) => {
    const dir = resolve(p);
    const manifest = ['.codex-plugin/plugin.json', '.claude-plugin/plugin.json'].map((m) => join(dir, m)).find(existsSync);
    if (!manifest) fail(`${dir} has no .codex-plugin/plugin.json (or .claude-plugin/plugin.json)`, 4);
    const name = JSON.parse(readFileSync(manifest, 'utf8')).name;
    cpSync(dir, join(market, 'plugins', name), { recursive: true });
    return name;
  });
  const plugins = names.map((name) => ({ name, source: { source: 'local', path: `./plugins/${name}` }, policy: { installation: 'AVAILABLE' }, category: 'Developer Tools' }));
  writeFileSync(join(market, '.agents', 'plugins', 'marketplace.json'), JSON.stringify({ name: 'capsule-local', interface: { displayName: 'capsule harness' }, plugins }));
  const log = join(out, 'plugin-install.log');
  if (!setup(['plugin', 'marketplace', 'add', market], log)) fail(`codex plugin marketplace add failed (see ${log})`, 4);
  for (const name of names) if (!setup(['plugin', 'add', `${name}@capsule-local`], log)) fail(`codex plugin add ${name} failed (see ${log})`, 4);
}

let trusted = false;
function trustHooks() {
  if (trusted) return;
  const r = timedStep(process.execPath, [join(HERE, 'app-server.mjs'), codex, 'trust', ...config], { cwd: repo, env, timeoutSec: stepSec, stdout: join(out, 'trust.jsonl'), stderr: join(out, 'trust.err') });
  if (r.rc !== 0) fail(`trusting the hooks failed (see ${join(out, 'trust.err')})`, 4);
  trusted = true;
}
if (opts.A) trustHooks();

const common = ['--json', '--skip-git-repo-check', ...sandbox, ...bypass, ...config];
const version = spawnSync(codex, ['--version'], { env, encoding: 'utf8' }).stdout?.trim().split('\n').pop() ?? '?';
summaryLine(out, `port=${fake.port} netns=${isolated ? 1 : 0} codex=${version}`);
let session = '';
let status = 0;
prompts.forEach((prompt, k) => {
  const n = k + 1;
  let cmd = codex;
  let args;
  if (prompt === '@compact') {
    if (bypass.length > 0) trustHooks(); // app-server takes no bypass flag
    cmd = process.execPath;
    args = [join(HERE, 'app-server.mjs'), codex, 'compact', session, ...config];
  } else if (prompt.startsWith('@tui:')) {
    cmd = process.execPath;
    args = [join(HERE, 'tui.mjs'), codex, session, join(out, `step-${n}`), prompt.slice(5), ...sandbox, ...bypass, ...config];
  } else if (prompt.startsWith('@new:')) {
    session = '';
    args = ['exec', ...common, ...opts.extra, prompt.slice(5)];
  } else if (prompt.startsWith('@last:')) args = ['exec', 'resume', '--last', ...common, ...opts.extra, prompt.slice(6)];
  else args = session === '' ? ['exec', ...common, ...opts.extra, prompt] : ['exec', 'resume', ...common, ...opts.extra, session, prompt];
  summaryLine(out, `step ${n}: ${[cmd, ...args].map((a) => JSON.stringify(a)).join(' ').split(out).join('$OUT')}`);
  const step = timedStep(cmd, args, { cwd: repo, env, timeoutSec: stepSec, stdout: join(out, `step-${n}.jsonl`), stderr: join(out, `step-${n}.err`) });
  const started = [...readFileSync(join(out, `step-${n}.jsonl`), 'utf8').matchAll(/"type":"thread\.started","thread_id":"([^"]+)"/g)];
  if (started.length > 0) session = started[started.length - 1][1];
  summaryLine(out, `step ${n}: rc=${step.rc} duration_ms=${step.ms} session=${session}`);
  if (step.rc !== 0) status = step.rc;
});
fake.stop();

// Rollout names start with their creation time: name order is session order.
const rollouts = [];
const walk = (dir) => {
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/^rollout-.*\.jsonl$/.test(name)) rollouts.push(path);
  }
};
walk(join(codexHome, 'sessions'));
rollouts.sort((a, b) => basename(a).localeCompare(basename(b)));
rollouts.forEach((path, k) => {
  copyFileSync(path, join(out, `rollout-${k + 1}.jsonl`));
  summaryLine(out, `rollout-${k + 1}.jsonl: session ${basename(path, '.jsonl').slice(-36)}`);
});
summaryLine(out, `requests=${lineCount(join(out, 'requests.jsonl'))} rollouts=${rollouts.length}`);
process.stdout.write(`logs: ${out}\n`);
process.exit(status);
