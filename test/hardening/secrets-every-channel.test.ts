import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../lib/hosts/claude/hook-events';
import { CODEX_HOOK_EVENTS } from '../../lib/hosts/codex/hook-events';
import type { HookEventName, HostEvents } from '../../lib/hosts/host';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';
import { rollout } from '../hosts/codex/codex-fixtures';
import { secretShapes, type SecretShape } from '../redact/secret-shapes';
import { generateSecrets } from '../redact/secret-corpus';
import { allowListShapes } from '../redact/allow-list-shapes';
import { filesAsText } from '../support/files-as-text';

// Done-when of issue 36, item 1: the project's three secret corpora (well over 150 shapes)
// planted in every channel the hooks read, on both hosts (prompt, final message, tool input,
// tool output, file paths, the environment attachment, the compaction summary; the Codex
// rollout carries its own), through the BUILT hooks (dist/hooks, as the hosts run them) turn by
// turn. After EVERY hook run: no twelve-character run of any planted secret in any object of
// `git rev-list --objects --all`, in the hook's output, or in any file of the runtime state.
// Some prompts and summaries place a secret across the cuts (the journal's 4,000 characters,
// PostCompact's 240 and its `;` split), so a clip that runs before the redaction leaks its head.
const HOOKS = join(__dirname, '..', '..', 'dist', 'hooks');
const PER_TURN = 12;
const RUN = 12;

const shapes: SecretShape[] = [
  ...allowListShapes(36),
  ...secretShapes(1616),
  ...generateSecrets(1617).map((s) => ({ shape: `${s.kind} (first corpus)`, value: s.value, context: s.context })),
];

/** Every twelve-character run of every secret (each line of a multi-line one), with the shape it belongs to. */
const RUNS = new Map<string, string>();
for (const s of shapes) {
  for (const line of s.value.replace(/\\n/g, '\n').split('\n')) {
    for (let i = 0; i + RUN <= line.length; i++) RUNS.set(line.slice(i, i + RUN), s.shape);
  }
}

/** The planted secrets' runs found in `text`: one linear pass with a set lookup per position. */
function leaks(where: string, text: string): string[] {
  const found = new Map<string, string>();
  for (let i = 0; i + RUN <= text.length; i++) {
    const shape = RUNS.get(text.slice(i, i + RUN));
    if (shape !== undefined && !found.has(shape)) found.set(shape, `${shape}: ${JSON.stringify(text.slice(Math.max(0, i - 40), i + RUN + 20))} in ${where.replace(/\/tmp\/[^ ]*\/state\//, 'state/')}`);
  }
  return [...found.values()];
}

/**
 * Every object `git rev-list --objects --all` names that is not in `scanned`, printed whole (and
 * added to it). An object's bytes never change, so one scanned after an earlier run would read
 * the same now: scanning only the new ones checks every object after every run, in time linear
 * in the history instead of quadratic.
 */
function newObjects(repo: TestRepo, scanned: Set<string>): string {
  const ids = spawnSync('git', ['rev-list', '--objects', '--all'], { cwd: repo.dir, env: repo.env, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
  const fresh = ids.split('\n').map((l) => l.split(' ')[0]!).filter((id) => id !== '' && !scanned.has(id));
  for (const id of fresh) scanned.add(id);
  if (fresh.length === 0) return '';
  return spawnSync('git', ['cat-file', '--batch'], { cwd: repo.dir, env: repo.env, input: `${fresh.join('\n')}\n`, encoding: 'latin1', maxBuffer: 1 << 28 }).stdout;
}

/** The leaks after one hook run: its output, every object (those not scanned after an earlier run), every runtime file. */
function leaksAfter(label: string, repo: TestRepo, output: string, scanned: Set<string>): string[] {
  return [
    ...leaks(`${label} output`, output),
    ...leaks(`${label}: objects`, newObjects(repo, scanned)),
    ...filesAsText(repo.stateDir).flatMap((f) => leaks(`${label}: ${f.path}`, f.text)),
  ];
}

/** A prompt that puts the secret across the journal's 4,000-character cut. */
/** A secret as a file name: a hex value there reads as a content hash (no rule can tell), so it is planted with its context only. */
const asFileName = (s: SecretShape) => (/^[0-9a-f-]+$/i.test(s.value) ? 'deploy-step' : s.value.replace(/[\n/\\]/g, '_').slice(0, 60));

const acrossJournalCut = (s: SecretShape) => `${'please keep going with the deploy. '.repeat(120).slice(0, 3995)}${s.context}`;
/** A summary whose objective puts the secret across the 240-character cut, and whose decisions split it on `;`. */
const summaryWith = (s: SecretShape) =>
  [
    'The session deployed the service.',
    '<capsule-state>',
    `objective: ${'finish the rollout of the payments service '.repeat(6).slice(0, 225)}${s.context.replace(/\n/g, ' ')}`,
    'waiting_on: nothing',
    `next_valid_action: rotate ${s.context.replace(/\n/g, ' ')}`,
    `done: migrated the schema; ${s.value.slice(0, Math.floor(s.value.length / 2))};${s.value.slice(Math.floor(s.value.length / 2))}`,
    `decisions: keep the old endpoint; use ${s.context.replace(/\n/g, ' ')}; ship on Friday`,
    '</capsule-state>',
  ].join('\n');

interface HostCase {
  name: string;
  events: HostEvents;
  args: string[];
  session: string;
  transcriptName: string;
  extra: Record<string, unknown>;
  /** Appends one turn's rows planting `turn` (one shape per channel in turn) and returns them as JSONL. */
  turnRows: (turn: SecretShape[], n: number, repo: TestRepo) => string;
  postCompact: boolean;
}

const CLAUDE_SESSION = '5b1f4c2e-7d3a-4e8b-9c0d-1e2f3a4b5c6d';
const claude = new Map<string, TranscriptBuilder>();

function claudeTurn(turn: SecretShape[], n: number, repo: TestRepo): string {
  const t = claude.get(repo.dir) ?? new TranscriptBuilder(CLAUDE_SESSION, repo.dir);
  claude.set(repo.dir, t);
  const before = t.rows.length;
  turn.forEach((s, i) => {
    const id = `toolu_${n}_${i}`;
    switch (i % 7) {
      case 0:
        t.user(`here is what you need:\n${s.context}`);
        break;
      case 1:
        t.assistant(`I will use ${s.context} for the next step.`);
        break;
      case 2:
        t.toolUse(id, 'Bash', { command: s.context, description: 'run the deploy step' });
        t.toolResult(id, `Exit code 1\nError: request failed\n${s.context}`, true);
        break;
      case 3:
        t.toolUse(id, 'Bash', { command: 'npm test', description: 'run the tests' });
        t.toolResult(id, `FAIL test/deploy.test.js\nError: ${s.context}\nTests: 1 failed, 3 passed`, true);
        break;
      case 4:
        t.toolUse(id, 'Read', { file_path: `${repo.dir}/config/${asFileName(s)}.cfg` });
        t.toolResult(id, `     1\t${s.context}`);
        break;
      case 5:
        t.add({ type: 'attachment', attachment: { type: 'environment', changes: [{ field: 'cwd', from: repo.dir }], snapshot: { cwd: `${repo.dir}/${s.context}` } } });
        break;
      default:
        t.toolUse(id, 'Write', { file_path: `${repo.dir}/deploy/${asFileName(s)}.sh`, content: `#!/bin/sh\n${s.context}\n` });
        t.toolResult(id, 'File created successfully');
    }
  });
  return t.rows.slice(before).map((r) => `${JSON.stringify(r)}\n`).join('');
}

function codexTurn(turn: SecretShape[], n: number, repo: TestRepo): string {
  const rows = [rollout.turn(repo.dir)];
  turn.forEach((s, i) => {
    const id = `call_${n}_${i}`;
    switch (i % 5) {
      case 0:
        rows.push(rollout.prompt(`here is what you need:\n${s.context}`));
        break;
      case 1:
        rows.push(rollout.said(`I will use ${s.context} for the next step.`));
        break;
      case 2:
        rows.push(rollout.exec(id, s.context), rollout.output(id, 1, `Error: request failed\n${s.context}`), rollout.ran(id, s.context, 1, s.context));
        break;
      case 3:
        rows.push(rollout.exec(id, 'npm test'), rollout.output(id, 1, `FAIL test/deploy.test.js\nError: ${s.context}`));
        break;
      default: {
        const path = `deploy/${asFileName(s)}.sh`;
        rows.push(rollout.patch(id, `*** Begin Patch\n*** Add File: ${path}\n+${s.context.replace(/\n/g, '\n+')}\n*** End Patch`), rollout.patchOutput(id, 0, `Success. Updated the following files:\nA ${path}`));
      }
    }
  });
  return rows.map((r) => `${JSON.stringify(r.data)}\n`).join('');
}

const HOSTS: HostCase[] = [
  { name: 'Claude Code', events: HOOK_EVENTS, args: [], session: CLAUDE_SESSION, transcriptName: 'session.jsonl', extra: {}, turnRows: claudeTurn, postCompact: true },
  {
    name: 'the Codex CLI',
    events: CODEX_HOOK_EVENTS,
    args: ['--host', 'codex'],
    session: '01a230d4-782a-72d0-ba84-41438a9184ed',
    transcriptName: 'rollout-2026-12-01T08-59-20-01a230d4-782a-72d0-ba84-41438a9184ed.jsonl',
    extra: { model: 'gpt-5.5', turn_id: 't1', permission_mode: 'bypassPermissions' },
    turnRows: codexTurn,
    postCompact: false,
  },
];

describe.each(HOSTS)('every secret of the corpora, every channel, through the built hooks of $name', (host) => {
  jest.setTimeout(900_000);
  let repo: TestRepo;
  let transcript: string;
  const found: string[] = [];
  const scanned = new Set<string>();
  let runs = 0;

  function run(event: HookEventName, payload: Record<string, unknown>): void {
    const r = spawnSync(process.execPath, [join(HOOKS, `${host.events[event]!.file}.js`), ...host.args], {
      cwd: repo.dir,
      env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir },
      input: JSON.stringify({ session_id: host.session, transcript_path: transcript, cwd: repo.dir, hook_event_name: event, ...host.extra, ...payload }),
      encoding: 'utf8',
      timeout: host.events[event]!.hostTimeoutSec * 1000 * 3,
    });
    expect({ event, code: r.status }).toEqual({ event, code: 0 });
    runs++;
    found.push(...leaksAfter(`${event} #${runs}`, repo, `${r.stdout}\n${r.stderr}`, scanned));
  }

  beforeAll(() => {
    if (!existsSync(join(HOOKS, 'stop.js'))) throw new Error(`build first: ${HOOKS} is missing (npm run build)`);
    repo = makeTestRepo();
    transcript = join(repo.dir, '..', host.transcriptName);
    writeFileSync(transcript, '');
    for (let n = 0; n * PER_TURN < shapes.length; n++) {
      const turn = shapes.slice(n * PER_TURN, (n + 1) * PER_TURN);
      const first = turn[0]!;
      run('UserPromptSubmit', { prompt: n % 2 === 0 ? acrossJournalCut(first) : `and now ${first.context}` });
      appendFileSync(transcript, host.turnRows(turn, n, repo));
      run('Stop', { stop_hook_active: false, last_assistant_message: `Done; I used ${turn[turn.length - 1]!.context}` });
      if (n % 5 === 4) {
        run('PreCompact', { trigger: 'manual', custom_instructions: turn[1]!.context });
        if (host.postCompact) run('PostCompact', { trigger: 'manual', compact_summary: summaryWith(turn[2]!) });
      }
    }
    run('SessionStart', { source: 'clear' });
  });
  afterAll(() => repo?.cleanup());

  it('plants well over 150 shapes and runs the hooks', () => {
    expect(shapes.length).toBeGreaterThanOrEqual(250);
    expect(runs).toBeGreaterThan(40);
    expect(repo.git(['rev-list', '--count', 'capsules'])).not.toBe('0');
  });

  it('leaves no twelve-character run of any planted secret in any object, hook output or runtime file, after every run', () => {
    const byShape = new Map<string, string>();
    for (const f of found) if (!byShape.has(f.split(':')[0]!)) byShape.set(f.split(':')[0]!, f);
    expect([...byShape.values()]).toEqual([]);
  });
});
