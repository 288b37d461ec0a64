// The memory-branch fixtures of every bench: one project repository with a short history and a
// memory branch of N capsules, written with ONE fast-import stream in the store's own layout
// (paths from lib/store, so a layout change on main is measured, not bypassed), then indexed
// by the built CLI's `reindex`. Bundled on the fly by bench/lib/load-fixture.mjs.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCapsule } from '../../lib/capsule/render';
import { emptySections } from '../../lib/capsule/sections';
import { capsuleDir, capsulePath } from '../../lib/store/memory-format';
import { eventName, eventText } from '../../lib/store/status-events';

/** What to build. */
export interface FixtureSpec {
  dir: string;
  /** Capsules on the memory branch. */
  n: number;
  /** One capsule in `activeEvery` stays active (50: 2 %); the rest are resumed or resolved. */
  activeEvery: number;
  /**
   * How many of the newest capsules share the current UTC month. Layout 2 shards by the UTC day
   * of the id's time, so they spread over this month's day shards (today's is where writes go).
   */
  monthShard: number;
  /** The built CLI (`dist/git-capsule.js`), for `init` and `reindex`. */
  cli: string;
  env: NodeJS.ProcessEnv;
  /** Commits the project's HEAD moved since the capsules' `repo_head` (the resume measures it). */
  headMoved?: number;
  /** Keep every object loose (fast-import packs by default above its unpack limit). */
  loose?: boolean;
  /**
   * Pack everything (`git gc`), then write the newest capsule through the built CLI, as a
   * session's last save lands moments before its /clear: the objects that write touched are
   * loose again, the rest packed, which is what a resume meets in a repository in use.
   */
  packThenWriteNewest?: boolean;
  now?: Date;
}

/** The fixture built: the repository, and the capsule a resume picks (the newest, active). */
export interface Fixture {
  dir: string;
  n: number;
  active: number;
  newestId: string;
  repoHead: string;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID for instant `ms` whose random part is `i` (deterministic, unique per capsule). */
export function fixtureUlid(ms: number, i: number): string {
  let time = '';
  for (let k = 0, t = ms; k < 10; k += 1, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let rest = '';
  for (let k = 0, x = i + 1; k < 16; k += 1, x = Math.floor(x / 32)) rest = CROCKFORD[x % 32] + rest;
  return time + rest;
}

/**
 * Creation instants, oldest first: the newest `monthShard` fill the current UTC month up to a
 * minute before `now`; the rest spread over the twelve months before it.
 */
function instants(n: number, monthShard: number, now: Date): number[] {
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const recent = Math.min(n, monthShard);
  const older = n - recent;
  const end = now.getTime() - 60_000;
  const span = Math.max(1, end - monthStart);
  const olderSpan = 365 * 86_400_000;
  const out: number[] = [];
  for (let i = 0; i < older; i += 1) out.push(monthStart - 1 - Math.floor((olderSpan * (older - i)) / (older + 1)));
  for (let i = 0; i < recent; i += 1) out.push(monthStart + Math.floor((span * (i + 1)) / (recent + 1)));
  return out;
}

function capsuleText(id: string, i: number, createdAt: string, repoHead: string): string {
  const sections = emptySections();
  sections.done = [`edited src/widget-${i}.ts: parser handles nested lists`, 'ran npm test: 212 passed'];
  sections.errors = [`\`npm test -- widget\` failed: expected 3 got 2 → resolved: fixed the off-by-one in widget-${i}.ts`];
  sections.files = [`modified: src/widget-${i}.ts`, 'read: src/parser.ts', 'read: test/widget.test.ts'];
  return renderCapsule({
    frontmatter: {
      id,
      objective: `Make the widget parser handle nested lists (task ${i})`,
      waiting_on: 'nothing',
      next_valid_action: `run npm test -- widget and fix the first failure in widget-${i}.ts`,
      status: 'active',
      trigger: i % 3 === 0 ? 'manual' : 'autosave',
      created_at: createdAt,
      session_id: `fixture-session-${i % 97}`,
      repo_head: repoHead,
      repo_branch: 'main',
    },
    sections,
    notes: '',
  });
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/** Builds the fixture (seconds at N = 10,000). */
export function buildMemoryFixture(spec: FixtureSpec): Fixture {
  const { dir, env } = spec;
  mkdirSync(dir, { recursive: true });
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: dir, env, input, encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
  git(['init', '-q', '-b', 'main']);
  git(['config', 'gc.auto', '0']);
  git(['config', 'user.name', 'Bench']);
  git(['config', 'user.email', 'bench@example.invalid']);
  const moved = spec.headMoved ?? 3;
  const commit = (c: number) => {
    writeFileSync(join(dir, 'README.md'), `# bench project\n\nrevision ${c}\n`);
    git(['add', '-A']);
    git(['commit', '-qm', `revision ${c}`]);
  };
  commit(0);
  const repoHead = git(['rev-parse', 'HEAD']);
  run(spec.cli, ['init'], dir, env);
  const now = spec.now ?? new Date();
  const at = instants(spec.n, spec.monthShard, now);
  const newest = spec.n - 1;
  const parts = [`commit refs/heads/capsules\ncommitter Bench <bench@example.invalid> ${Math.floor(now.getTime() / 1000)} +0000\n${data(`fixture: ${spec.n} capsules\n`)}from refs/heads/capsules^0\n`];
  let active = 0;
  let newestId = '';
  for (let i = 0; i < spec.n; i += 1) {
    const ms = at[i]!;
    const id = fixtureUlid(ms, i);
    const createdAt = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    parts.push(`M 100644 inline ${capsulePath(id)}\n${data(capsuleText(id, i, createdAt, repoHead))}`);
    // The newest stays active: a resume right after the session that wrote it.
    if (i === newest || (newest - i) % spec.activeEvery === 0) {
      active += 1;
      if (i === newest) newestId = id;
      continue;
    }
    const status = i % 2 === 0 ? 'resolved' : 'resumed';
    const when = new Date(Math.min(ms + 60_000, now.getTime() - 1_000));
    const event = { now: when, writer: 'fixture', status } as const;
    parts.push(`M 100644 inline ${capsuleDir(id)}/status/${eventName(event)}\n${data(eventText(event))}`);
  }
  parts.push('\ndone\n');
  const limit = spec.loose ? ['-c', 'fastimport.unpackLimit=100000000'] : [];
  execFileSync('git', [...limit, 'fast-import', '--quiet', '--done'], { cwd: dir, env, input: parts.join(''), maxBuffer: 1 << 30 });
  run(spec.cli, ['reindex'], dir, env);
  if (spec.packThenWriteNewest) {
    git(['gc', '-q', '--prune=now']);
    // Written at HEAD = repoHead, so its repo_head is the same commit as every other capsule's.
    newestId = run(spec.cli, ['write', '--objective', 'Make the widget parser handle nested lists (the session just cleared)', '--waiting-on', 'nothing', '--next', 'run npm test -- widget and fix the first failure'], dir, env).trim();
    active += 1;
  }
  for (let c = 1; c <= moved; c += 1) commit(c);
  return { dir, n: spec.n + (spec.packThenWriteNewest ? 1 : 0), active, newestId, repoHead };
}

function run(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git-capsule ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}
