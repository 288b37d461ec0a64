// Measures two hook routes through the house: how many source files and folders of lib/ a run
// enters, how many of its calls cross from one folder into another, and which git processes it
// starts. The routes: a Stop in the middle of a session (its turn folded and committed), and the
// SessionStart(clear) that follows a capsule written with the CLI (the resume text).
//
//   node scripts/build.mjs && node scripts/route-trace.mjs [--json]
//
// How it counts, so the numbers can be checked:
// - Git processes: every route runs twice from the same scripted start, in two fresh temporary
//   repositories. The first run is the built bundle (dist/hooks/<event>.js, through its launcher,
//   as a host runs it) with a `git` first on PATH that appends its argv to a log and execs the
//   real git. What git forks itself (fast-import's unpack-objects) does not go through PATH and
//   is not counted: these are the processes our code starts.
// - Files, folders and folder changes: the second run is a bundle of the same entry built here
//   from source, unminified, where every function body of lib/ first calls a recorder with its
//   file (a TypeScript syntax walk inserts the call; nothing else changes). The recorder takes
//   the nearest calling frame that is lib/ code (native frames such as Array.map are skipped)
//   and maps it to its source file by the `// lib/…` headers esbuild writes before each module.
//   "Files" are the files whose functions ran (module top-level code, which every bundled module
//   runs at load, is not counted); "folders" their folders; a "folder change" is a call whose
//   caller is in another folder than the function called ("distinct": counted once per caller
//   file and callee file, so a loop over records counts once). A callback started by node itself
//   (an I/O event) has no calling lib/ frame and counts as an entry, not as a change.
// - The setup before each measured run (a repository, the session's earlier hooks, the CLI's
//   write) runs the built bundles and is not measured.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const JSON_OUT = process.argv.includes('--json');
// --edges: also list each route's cross-folder calls by caller and callee file, most frequent first.
const EDGES = process.argv.includes('--edges');
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const WORK = mkdtempSync(join(tmpdir(), 'route-trace-'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

// ---- the traced bundles ----------------------------------------------------------------------

/** The lib/ files a bundle holds, by index: the recorder calls carry the index. */
const files = [];
const fileIndex = (path) => {
  let i = files.indexOf(path);
  if (i === -1) i = files.push(path) - 1;
  return i;
};

/** Named functions whose entries are counted on their own: how often a run locates the repository and reads its config. */
const WATCHED = { 'lib/git/git-dir-walk.ts:walkToGitDir': 'repositoryWalks', 'lib/git/config-snapshot.ts:readConfigSnapshot': 'configReads' };
const watchedIds = [];

/** Inserts `__routeTrace(i)` at the top of every function body of one source file. */
function instrument(source, path) {
  const fileId = fileIndex(path);
  const sf = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  const visit = (node) => {
    const body = ts.isFunctionLike(node) ? node.body : undefined;
    if (body !== undefined) {
      // A watched function gets an id of its own (negative: the file is still its file).
      const watched = node.name && WATCHED[`${path}:${node.name.getText(sf)}`];
      const id = watched ? -1 - (watchedIds.push([fileId, watched]) - 1) : fileId;
      if (ts.isBlock(body)) edits.push([body.getStart(sf) + 1, `__routeTrace(${id});`]);
      else {
        edits.push([body.getStart(sf), `(__routeTrace(${id}), `]);
        edits.push([body.end, ')']);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  edits.sort((a, b) => b[0] - a[0]);
  let out = source;
  for (const [at, text] of edits) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

/** The recorder, put first in the bundle: it keeps the entries and writes them at exit. */
const RECORDER = `
const __routeLines = [];
const __routeEntries = [];
globalThis.__routeTrace = function (callee) {
  const keep = Error.prepareStackTrace, limit = Error.stackTraceLimit;
  Error.prepareStackTrace = (_, frames) => frames;
  Error.stackTraceLimit = 12;
  const holder = {};
  Error.captureStackTrace(holder, globalThis.__routeTrace);
  const frames = holder.stack;
  Error.prepareStackTrace = keep;
  Error.stackTraceLimit = limit;
  let caller = -1;
  for (let i = 1; i < frames.length; i++) {
    if (frames[i].getFileName() !== __filename) continue;
    caller = frames[i].getLineNumber();
    break;
  }
  __routeEntries.push(callee, caller);
};
process.on('exit', () => {
  if (process.env.ROUTE_TRACE_OUT) require('node:fs').writeFileSync(process.env.ROUTE_TRACE_OUT, JSON.stringify(__routeEntries));
});
`;

async function tracedBundle(event) {
  const outfile = join(WORK, 'traced', `${event}.js`);
  await build({
    entryPoints: [join(ROOT, 'lib', 'hooks', `entry-${event}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    banner: { js: RECORDER },
    define: { __VERSION__: JSON.stringify(pkg.version) },
    supported: { 'dynamic-import': false },
    plugins: [
      {
        name: 'route-trace',
        setup(b) {
          b.onLoad({ filter: /[\\/]lib[\\/].*\.ts$/ }, (args) => ({ contents: instrument(readFileSync(args.path, 'utf8'), relative(ROOT, args.path).split('\\').join('/')), loader: 'ts' }));
        },
      },
    ],
  });
  // Bundle line → source file, from the `// lib/…` header esbuild writes before each module.
  const lineFile = [];
  let current = null;
  readFileSync(outfile, 'utf8').split('\n').forEach((line, i) => {
    const header = /^\s*\/\/ (\S+\.(?:ts|js|mjs|cjs|json))$/.exec(line);
    if (header) current = header[1].startsWith('lib/') ? header[1] : null;
    lineFile[i + 1] = current;
  });
  return { outfile, lineFile };
}

function summarise(entries, lineFile) {
  const entered = new Set();
  let changes = 0;
  let crossFile = 0;
  let calls = 0;
  let fromOutside = 0;
  const edges = new Map();
  const watched = Object.fromEntries(Object.values(WATCHED).map((name) => [name, 0]));
  for (let i = 0; i < entries.length; i += 2) {
    let id = entries[i];
    if (id < 0) {
      const [fileId, name] = watchedIds[-1 - id];
      watched[name]++;
      id = fileId;
    }
    const callee = files[id];
    const caller = entries[i + 1] === -1 ? null : lineFile[entries[i + 1]] ?? null;
    calls++;
    entered.add(callee);
    if (caller === null) fromOutside++;
    else {
      if (caller !== callee) crossFile++;
      if (dirname(caller) !== dirname(callee)) {
        changes++;
        const edge = `${caller} -> ${callee}`;
        edges.set(edge, (edges.get(edge) ?? 0) + 1);
      }
    }
  }
  const list = [...entered].sort();
  return { ...watched, files: list.length, folders: new Set(list.map((f) => dirname(f))).size, folderChanges: changes, crossFileCalls: crossFile, functionEntries: calls, entriesFromNode: fromOutside, fileList: list, folderEdges: [...edges].sort((a, b) => b[1] - a[1]) };
}

// ---- the scripted session ------------------------------------------------------------------------

function gitWrapper(dir) {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "$ROUTE_GIT_LOG"\nexec ${JSON.stringify(REAL_GIT)} "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return bin;
}

function turn(i, cwd) {
  const t = new Date().toISOString();
  const use = `toolu_${i}`;
  return [
    { type: 'user', uuid: `u${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'user', content: `please add the parser step ${i}` } },
    { type: 'assistant', uuid: `a${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'assistant', content: [{ type: 'tool_use', id: use, name: 'Write', input: { file_path: `${cwd}/src/step${i}.ts`, content: 'export {}' } }] } },
    { type: 'user', uuid: `r${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: use, content: 'File created successfully' }] } },
    { type: 'assistant', uuid: `b${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'assistant', content: [{ type: 'tool_use', id: `${use}b`, name: 'Bash', input: { command: 'npm test' } }] } },
    { type: 'user', uuid: `s${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `${use}b`, content: 'Tests: 4 passed', is_error: false }] } },
    { type: 'assistant', uuid: `d${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'assistant', content: [{ type: 'text', text: `step ${i} is in and its tests pass` }] } },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** A fresh session in its own folder: a project repository, a transcript, the environment a host gives its hooks. */
function session(name) {
  const base = join(WORK, name);
  const dir = join(base, 'project');
  mkdirSync(join(base, 'home'), { recursive: true });
  const log = join(base, 'git-argv.log');
  const env = { PATH: `${gitWrapper(base)}:${process.env.PATH}`, HOME: join(base, 'home'), TZ: 'UTC', ROUTE_GIT_LOG: log, CLAUDE_PROJECT_DIR: dir, CLAUDE_PID: String(process.pid) };
  mkdirSync(dir, { recursive: true });
  const git = (...args) => execFileSync(REAL_GIT, args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  writeFileSync(join(dir, 'README.md'), '# project\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
  const transcript = join(base, 'transcript.jsonl');
  writeFileSync(transcript, '');
  const payload = (event, extra) => JSON.stringify({ session_id: 'route-session', transcript_path: transcript, cwd: dir, hook_event_name: event, ...extra });
  const hook = (bundle, input, extraEnv = {}) => {
    const r = spawnSync(process.execPath, [bundle], { cwd: dir, env: { ...env, ...extraEnv }, input, encoding: 'utf8' });
    if (r.status !== 0 || /systemMessage/.test(r.stdout)) throw new Error(`${bundle} failed: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const built = (event) => join(ROOT, 'dist', 'hooks', `${event}.js`);
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(base, 'shell-bin'));
  const shellEnv = { ...env, PATH: `${join(base, 'shell-bin')}:${env.PATH}`, CLAUDE_PROJECT_DIR: undefined };
  const cli = (args, input) => execFileSync(process.execPath, [join(ROOT, 'dist', 'git-capsule.js'), ...args], { cwd: join(dir, 'src'), env: shellEnv, input, encoding: 'utf8' });
  return { dir, env, log, transcript, payload, hook, built, cli };
}

/** The routes: each prepares a session with the built bundles, then returns the measured run's bundle name and payload. */
const ROUTES = {
  Stop: (s) => {
    s.hook(s.built('session-start'), s.payload('SessionStart', { source: 'startup' }));
    appendFileSync(s.transcript, turn(1, s.dir));
    s.hook(s.built('stop'), s.payload('Stop', { stop_hook_active: false, last_assistant_message: 'step 1 is in' }));
    appendFileSync(s.transcript, turn(2, s.dir));
    return { event: 'stop', input: s.payload('Stop', { stop_hook_active: false, last_assistant_message: 'step 2 is in' }), expect: (out) => out.trim() === '' };
  },
  // The first hook after a capsule written with the CLI from a shell (the issue's case: the hook
  // finds no config cache entry of its own). The shell sits in a subfolder of the project and has
  // a PATH of its own (one more folder in front), as a user's or an agent's shell often does.
  'SessionStart(clear) after a CLI write': (s) => {
    s.cli(['write', '--objective', 'add the parser', '--waiting-on', 'nothing', '--next', 'wire step 2 into the CLI', '--trigger', 'manual']);
    return { event: 'session-start', input: s.payload('SessionStart', { source: 'clear' }), expect: (out) => /add the parser/.test(out) };
  },
};

// ---- the runs --------------------------------------------------------------------------------------

const results = [];
try {
  for (const [name, prepare] of Object.entries(ROUTES)) {
    const slug = name.replace(/\W+/g, '-').toLowerCase();
    // 1. The built bundle, with the logging git on PATH.
    const real = session(`${slug}-built`);
    const run = prepare(real);
    rmSync(real.log, { force: true });
    const out = real.hook(real.built(run.event), run.input);
    if (!run.expect(out)) throw new Error(`${name}: unexpected output from the built bundle: ${out.slice(0, 300)}`);
    const gitArgv = readFileSync(real.log, 'utf8').split('\n').filter(Boolean);
    // 2. The traced bundle, from the same start.
    const traced = session(`${slug}-traced`);
    const again = prepare(traced);
    const bundle = await tracedBundle(again.event);
    rmSync(traced.log, { force: true });
    const traceFile = join(WORK, `${slug}.trace.json`);
    const out2 = traced.hook(bundle.outfile, again.input, { ROUTE_TRACE_OUT: traceFile });
    if (!again.expect(out2)) throw new Error(`${name}: unexpected output from the traced bundle: ${out2.slice(0, 300)}`);
    const tracedGit = readFileSync(traced.log, 'utf8').split('\n').filter(Boolean);
    const summary = summarise(JSON.parse(readFileSync(traceFile, 'utf8')), bundle.lineFile);
    results.push({ route: name, ...summary, gitProcesses: gitArgv.length, gitArgv, tracedGitProcesses: tracedGit.length });
  }
} finally {
  rmSync(WORK, { recursive: true, force: true });
}

if (JSON_OUT) console.log(JSON.stringify(results, null, 2));
else {
  console.log('| route | files | folders | folder changes | distinct folder changes | cross-file calls | function entries | repository walks | config reads | git processes |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) console.log(`| ${r.route} | ${r.files} | ${r.folders} | ${r.folderChanges} | ${r.folderEdges.length} | ${r.crossFileCalls} | ${r.functionEntries} | ${r.repositoryWalks} | ${r.configReads} | ${r.gitProcesses} |`);
  if (EDGES) for (const r of results) console.log(`\n${r.route}, cross-folder calls:\n${r.folderEdges.map(([e, n]) => `  ${n}  ${e}`).join('\n')}`);
  for (const r of results) console.log(`\n${r.route}: git ${r.gitArgv.map((a) => `\`${a.split(' ').slice(0, 3).join(' ')}\``).join(', ') || 'none'}`);
}
