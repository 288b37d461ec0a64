// The test lanes. A file's lane follows from where it is and what it imports:
//   e2e        test/e2e/ and test/harness/: the real clients against the fake model APIs
//   hardening  test/hardening/: hostile inputs, kills, slow git, secrets
//   git        every other file whose imports (followed through test/, lib/ and bench/)
//              reach child_process: it starts git or another process
//   unit       the rest: pure code, no process (test/support/unit-guard.js checks it as it runs)
// `npm test` runs them all in one jest run; `npm run test:<lane>` one of them.
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const LANES = ['unit', 'git', 'e2e', 'hardening'];

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const SPAWN_IMPORT = /(?:from\s+|require\(\s*)'(?:node:)?child_process'/;
const RELATIVE_IMPORT = /(?:from\s+|require\(\s*|import\(\s*)'(\.[^']*)'/g;

/** Whether `file` or anything it imports from the repository imports child_process. */
function startsProcesses(file, seen = new Map()) {
  if (seen.has(file)) return seen.get(file);
  seen.set(file, false);
  const text = readFileSync(file, 'utf8');
  let found = SPAWN_IMPORT.test(text);
  for (const m of text.matchAll(RELATIVE_IMPORT)) {
    if (found) break;
    const base = join(dirname(file), m[1]);
    const target = [`${base}.ts`, `${base}.js`, join(base, 'index.ts'), base].find((p) => existsSync(p) && statSync(p).isFile());
    if (target !== undefined && /\.[cm]?[jt]s$/.test(target)) found = startsProcesses(target, seen);
  }
  seen.set(file, found);
  return found;
}

/** The lane of a test file (an absolute path). */
function laneOf(file) {
  const rel = relative(ROOT, file).split(sep).join('/');
  if (rel.startsWith('test/e2e/') || rel.startsWith('test/harness/')) return 'e2e';
  if (rel.startsWith('test/hardening/')) return 'hardening';
  return startsProcesses(file) ? 'git' : 'unit';
}

/** Every test file of the repository, by lane (absolute paths, sorted). */
function lanes() {
  const out = Object.fromEntries(LANES.map((l) => [l, []]));
  for (const file of testFiles(join(ROOT, 'test')).sort()) out[laneOf(file)].push(file);
  return out;
}

module.exports = { LANES, lanes, laneOf };
