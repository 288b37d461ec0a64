#!/usr/bin/env node
// One scripted session of the real Claude Code client, offline, against fake-api.mjs.
//
//   run.sh [-o OUT] [-P PLUGIN_DIR]... [-s SETTINGS] [-S SCRIPT.json] [-T TEMPLATE_DIR]
//          [-X SETUP] [-t STEP_TIMEOUT_S] [-N] [-p PROMPT]... [-- CLIENT ARGS]
//
//   -o  the output folder (emptied first; default: a new temp folder)
//   -P  a plugin folder, loaded in place with --plugin-dir (repeatable)
//   -s  --settings (a file or a JSON string)
//   -S  the fake API's rules (default: its built-in Bash-then-"done" script)
//   -T  files copied into the scratch repository before its first commit
//   -X  a shell command run once (sh -c) in the scratch repository after its first commit,
//       with the client's environment (HOME, the fake API) and $CCH_CLIENT naming the client:
//       how a user installs before the session starts (`$CCH_CLIENT plugin install …`,
//       `git capsule install --user`). Output in setup.out/.err; a non-zero exit ends the run (3).
//   -t  seconds each step may take (default 60)
//   -N  no network namespace (by default the run re-executes itself under `unshare -n`)
//   -p  one step each, in order (default: one step "hello"). Step 1 starts the session
//       (--session-id), later ones resume it (--resume); "/compact" and "/clear" are the
//       client's own commands; "@continue:TEXT" runs `--continue -p TEXT` (the newest session).
//
// Environment: CLAUDE_BIN (the real client; default `claude` on PATH), CCH_EXTRA_ENV ("K=V …"
// for the client, set after the caller's ANTHROPIC_*/CLAUDE* variables are dropped),
// CCH_PERMISSION_ARGS (default: --permission-mode acceptEdits --allowedTools Bash,Write,Edit,Read,
// which works as root, where bypassPermissions refuses to start).
//
// OUT holds: requests.jsonl (every request the fake API saw), step-N.stream.jsonl (stream-json
// output), step-N.err, step-N.debug.log, transcript.jsonl (the session's transcript), home/
// and repo/ (the client's HOME and the scratch repository), summary.txt (each step's command
// line, then `step N: rc=R duration_ms=D`).
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientEnv, fail, isolateNetwork, lineCount, outputFolder, parseCommandLine, scratchRepository, startFakeApi, summaryLine, timedStep } from '../lib/session-run.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
if (argv.includes('-h') || argv.includes('--help')) {
  process.stdout.write('usage: run.sh [-o OUT] [-P PLUGIN]... [-s SETTINGS] [-S SCRIPT] [-T TEMPLATE] [-X SETUP] [-t SECONDS] [-N] [-p PROMPT]... [-- CLIENT ARGS]\n');
  process.exit(0);
}
const isolated = isolateNetwork(fileURLToPath(import.meta.url), argv, 'CAPSULE_HARNESS_NETNS');

let opts;
try {
  opts = parseCommandLine(argv, { valued: ['o', 's', 'S', 'T', 'X', 't'], repeated: ['P', 'p'], switches: ['N'] });
} catch (e) {
  fail(e.message);
}
const client = process.env.CLAUDE_BIN ? resolve(process.env.CLAUDE_BIN) : 'claude';
if (client !== 'claude' && !existsSync(client)) fail(`CLAUDE_BIN=${client} does not exist`);
const prompts = opts.p.length > 0 ? opts.p : ['hello'];
const stepSec = Number(opts.t ?? 60);
const out = outputFolder(opts.o, 'claude-harness-');
const home = join(out, 'home');
mkdirSync(home, { recursive: true });
const repo = scratchRepository(join(out, 'repo'), opts.T && resolve(opts.T));

const fake = startFakeApi(join(HERE, 'fake-api.mjs'), out, opts.S && resolve(opts.S), stepSec * prompts.length + 30);
const env = clientEnv(
  process.env,
  /^(ANTHROPIC_|CLAUDE)/,
  {
    HOME: home,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${fake.port}`,
    ANTHROPIC_API_KEY: 'sk-fake',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  },
  'CCH_EXTRA_ENV',
);
const sessionId = randomUUID();
const permission = (process.env.CCH_PERMISSION_ARGS ?? '--permission-mode acceptEdits --allowedTools Bash,Write,Edit,Read').split(/\s+/).filter(Boolean);
const common = ['--output-format', 'stream-json', '--verbose', ...permission, ...opts.P.flatMap((p) => ['--plugin-dir', resolve(p)])];
if (opts.s) common.push('--settings', existsSync(opts.s) ? resolve(opts.s) : opts.s);

summaryLine(out, `session_id=${sessionId} port=${fake.port} netns=${isolated ? 1 : 0}`);
if (opts.X) {
  summaryLine(out, `setup: ${opts.X}`);
  const setup = timedStep('sh', ['-c', opts.X], { cwd: repo, env: { ...env, CCH_CLIENT: client }, timeoutSec: stepSec, stdout: join(out, 'setup.out'), stderr: join(out, 'setup.err') });
  summaryLine(out, `setup: rc=${setup.rc} duration_ms=${setup.ms}`);
  if (setup.rc !== 0) {
    fake.stop();
    fail(`the setup command failed (exit ${setup.rc}; see ${join(out, 'setup.err')})`, 3);
  }
}
let status = 0;
prompts.forEach((prompt, k) => {
  const n = k + 1;
  let session = ['--resume', sessionId];
  let text = prompt;
  if (n === 1) session = ['--session-id', sessionId];
  else if (prompt.startsWith('@continue:')) {
    session = ['--continue'];
    text = prompt.slice('@continue:'.length);
  }
  summaryLine(out, `step ${n}: ${session.join(' ')} -p ${JSON.stringify(text)}`);
  const args = ['-p', text, ...session, ...common, '--debug-file', join(out, `step-${n}.debug.log`), ...opts.extra];
  const step = timedStep(client, args, { cwd: repo, env, timeoutSec: stepSec, stdout: join(out, `step-${n}.stream.jsonl`), stderr: join(out, `step-${n}.err`) });
  summaryLine(out, `step ${n}: rc=${step.rc} duration_ms=${step.ms}`);
  if (step.rc !== 0) status = step.rc;
});
fake.stop();

const projects = join(home, '.claude', 'projects');
for (const project of existsSync(projects) ? readdirSync(projects) : []) {
  const transcript = join(projects, project, `${sessionId}.jsonl`);
  if (existsSync(transcript)) copyFileSync(transcript, join(out, 'transcript.jsonl'));
}
summaryLine(out, `requests=${lineCount(join(out, 'requests.jsonl'))}`);
process.stdout.write(`logs: ${out}\n`);
process.exit(status);
