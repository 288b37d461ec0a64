import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HOOK_EVENTS } from '../../lib/hosts/claude/hook-events';
import { CODEX_HOOK_EVENTS } from '../../lib/hosts/codex/hook-events';
import type { HookEventName, HostEvents } from '../../lib/hosts/host';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';
import { rollout } from '../hosts/codex/codex-fixtures';
import { redTeam4Shapes, type RedTeamShape } from './red-team-4-shapes';
import { filesAsText } from '../support/files-as-text';

// Red team 4: every shape of red-team-4-shapes.ts planted in EVERY channel the hooks read, on
// both hosts, through the BUILT hooks (dist/hooks) turn by turn. Each (host, channel) gets its own
// freshly drawn values of all the shapes, so a surviving run names the shape, the host AND the
// channel it came in through. After every hook run: its output, every git object not scanned
// before, and every runtime state file are searched. A piece of a value of 12 characters or more
// leaks when any 12-character run of it is found; a shorter piece leaks when it is found whole.
// The test reports every leak grouped by shape (console and, with RED_TEAM_4_REPORT=<file>, JSON)
// and then asserts there are none.
// (Added after the round, by the team that fixed what it found.) Written with `expect(leaks)
// .toEqual([])`, the round found 24 of 79 shapes leaking; the fixes it led to (docs/security.md,
// "Red team 4") leave these (shape / channel) pairs, and only these may leak: a secret used as a
// file's NAME, where words, digits and commas read as an ordinary file name, and one piece of a
// split key made of letters only, which reads as a word. Any other leak fails.
const KNOWN_GAPS: ReadonlySet<string> = new Set([
  ...['BIP39 mnemonic in hardhat config', 'French prose word passphrase', 'Solana keypair byte array', 'Spanish prose word password', 'ansible vault password file (cat output)', 'gpg --passphrase hyphenated words', 'ssh-keygen -N spaced words', 'kubectl get secret -o yaml (base64 data)']
    .flatMap((shape) => [`${shape} / file path: Read file_path`, `${shape} / file path: apply_patch path`]),
  'key split across a JS string concatenation / tool output: Bash error',
]);
const HOOKS = join(__dirname, '..', '..', 'dist', 'hooks');
const RUN = 12;
const PER_TURN = 4;

interface Plant {
  idx: number;
  host: string;
  channel: string;
  s: RedTeamShape;
}

interface Leak {
  shape: string;
  cls: string;
  host: string;
  channel: string;
  where: string;
  excerpt: string;
}

const plants: Plant[] = [];
/** 12-character run → every (plant, piece, offset) it comes from. */
const RUNS = new Map<string, Array<{ p: Plant; piece: string; at: number }>>();
/** A whole short piece (under 12 characters) → the plants it belongs to. */
const SHORT = new Map<string, Plant[]>();
const SHORT_LENGTHS = new Set<number>();

function plantSet(host: string, channel: string, seed: number): RedTeamShape[] {
  const shapes = redTeam4Shapes(seed);
  for (const s of shapes) {
    const p: Plant = { idx: plants.length, host, channel, s };
    plants.push(p);
    // Each piece as it is, and as a JSON string holds it (a backslash doubled), for the copies kept as JSON.
    const pieces = s.value.split('\n');
    for (const piece of new Set([...pieces, ...pieces.map((x) => JSON.stringify(x).slice(1, -1))])) {
      if (piece.length >= RUN) {
        for (let i = 0; i + RUN <= piece.length; i++) {
          const key = piece.slice(i, i + RUN);
          const list = RUNS.get(key) ?? [];
          list.push({ p, piece, at: i });
          RUNS.set(key, list);
        }
      } else {
        SHORT.set(piece, [...(SHORT.get(piece) ?? []), p]);
        SHORT_LENGTHS.add(piece.length);
      }
    }
  }
  return shapes;
}

/** How far `piece` matches `text` around a run found at `pos` that sits at `at` in the piece. */
function extent(text: string, pos: number, piece: string, at: number): number {
  let n = RUN;
  for (let i = 1; at - i >= 0 && pos - i >= 0 && text[pos - i] === piece[at - i]; i++) n++;
  for (let i = RUN; at + i < piece.length && pos + i < text.length && text[pos + i] === piece[at + i]; i++) n++;
  return n;
}

const excerptAt = (text: string, pos: number, len: number) => {
  const raw = text.slice(Math.max(0, pos - 30), pos + len + 30);
  const utf8 = Buffer.from(raw, 'latin1').toString('utf8');
  return JSON.stringify(/\uFFFD/.test(utf8) ? raw : utf8).slice(0, 120);
};

/** The plants found in `text` (one linear pass, set lookups per position), at most one leak per plant. */
function scan(host: string, where: string, text: string): Leak[] {
  const found = new Map<number, Leak>();
  const add = (p: Plant, pos: number, len: number) => {
    if (p.host !== host || found.has(p.idx)) return;
    found.set(p.idx, { shape: p.s.shape, cls: p.s.cls, host: p.host, channel: p.channel, where, excerpt: excerptAt(text, pos, len) });
  };
  for (let i = 0; i < text.length; i++) {
    if (i + RUN <= text.length) {
      const hits = RUNS.get(text.slice(i, i + RUN));
      if (hits !== undefined) {
        const own = hits.filter((h) => h.p.host === host);
        if (own.length > 0) {
          // A run two plants share (words of a passphrase): the one matching furthest around it.
          const best = own.reduce((a, b) => (extent(text, i, b.piece, b.at) > extent(text, i, a.piece, a.at) ? b : a));
          add(best.p, i, RUN);
        }
      }
    }
    for (const len of SHORT_LENGTHS) {
      if (i + len > text.length) continue;
      const hits = SHORT.get(text.slice(i, i + len));
      if (hits !== undefined) for (const p of hits) add(p, i, len);
    }
  }
  return [...found.values()];
}

/** Every object of `git rev-list --objects --all` not in `scanned` (added to it), each with its type and id. */
function newObjects(repo: TestRepo, scanned: Set<string>): Array<{ where: string; text: string }> {
  const ids = spawnSync('git', ['rev-list', '--objects', '--all'], { cwd: repo.dir, env: repo.env, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
  const names = new Map<string, string>();
  for (const l of ids.split('\n')) {
    const [id, ...name] = l.split(' ');
    if (id && !scanned.has(id)) names.set(id, name.join(' '));
  }
  const fresh = [...names.keys()];
  for (const id of fresh) scanned.add(id);
  if (fresh.length === 0) return [];
  const out = spawnSync('git', ['cat-file', '--batch'], { cwd: repo.dir, env: repo.env, input: `${fresh.join('\n')}\n`, encoding: 'latin1', maxBuffer: 1 << 28 }).stdout;
  const objects: Array<{ where: string; text: string }> = [];
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf('\n', at);
    const [id, type, size] = out.slice(at, eol).split(' ');
    const n = Number(size);
    objects.push({ where: `git ${type} ${id!.slice(0, 10)}${names.get(id!) ? ` (${names.get(id!)})` : ''}`, text: out.slice(eol + 1, eol + 1 + n) });
    at = eol + 1 + n + 1;
  }
  return objects;
}

// ---- the channels --------------------------------------------------------------------------

/** A value as a file name; a hex value there reads as a content hash (no rule can tell, as in secrets-every-channel), so it is left out. */
const asFileName = (s: RedTeamShape) => (/^[0-9a-f-]+$/i.test(s.value) ? 'deploy-step' : s.value.replace(/[\n/\\]/g, '_').slice(0, 80));
const numbered = (text: string) =>
  text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
    .join('\n');
const oneLine = (ctx: string) => ctx.replace(/\n/g, ' ');

type ClaudeChannel = (t: TranscriptBuilder, s: RedTeamShape, id: string, dir: string) => void;
const CLAUDE_TRANSCRIPT: Record<string, ClaudeChannel> = {
  'prompt (transcript user row)': (t, s) => void t.user(`here is what you need:\n${s.context}`),
  'assistant text': (t, s) => void t.assistant(`I will use this for the next step:\n${s.context}`),
  thinking: (t, s) => void t.thinking(`The user pasted ${s.context}\nI should use it without repeating it.`),
  'tool input: Bash command': (t, s, id) => {
    t.toolUse(id, 'Bash', { command: s.context, description: 'run the step the user asked for' });
    t.toolResult(id, 'done');
  },
  'tool output: Bash error': (t, s, id) => {
    t.toolUse(id, 'Bash', { command: 'make deploy', description: 'deploy' });
    t.toolResult(id, `Exit code 1\nmake: *** [deploy] Error 1\n${s.context}`, true);
  },
  'tool output: Read content': (t, s, id, dir) => {
    t.toolUse(id, 'Read', { file_path: `${dir}/.env.local` });
    t.toolResult(id, numbered(s.context));
  },
  'file path: Read file_path': (t, s, id, dir) => {
    t.toolUse(id, 'Read', { file_path: `${dir}/config/${asFileName(s)}.cfg` });
    t.toolResult(id, '     1\tport = 8080');
  },
  'tool input: Write content': (t, s, id, dir) => {
    t.toolUse(id, 'Write', { file_path: `${dir}/scripts/setup.sh`, content: `#!/bin/sh\nset -e\n${s.context}\n` });
    t.toolResult(id, 'File created successfully');
  },
  'tool input: Edit new_string': (t, s, id, dir) => {
    t.toolUse(id, 'Edit', { file_path: `${dir}/config/app.conf`, old_string: '# TODO credentials', new_string: s.context });
    t.toolResult(id, 'The file has been updated.');
  },
  'environment attachment': (t, s, _id, dir) =>
    void t.add({ type: 'attachment', attachment: { type: 'environment', changes: [{ field: 'cwd', from: dir }], snapshot: { cwd: `${dir}/${s.context}` } } }),
};

type Row = ReturnType<typeof rollout.line>;
type CodexChannel = (s: RedTeamShape, id: string) => Row[];
const CODEX_TRANSCRIPT: Record<string, CodexChannel> = {
  'prompt (rollout)': (s) => [rollout.prompt(`here is what you need:\n${s.context}`)],
  'assistant text (rollout)': (s) => [rollout.said(`I will use this for the next step:\n${s.context}`)],
  'tool input: exec cmd': (s, id) => [rollout.exec(id, s.context), rollout.output(id, 0, 'ok'), rollout.ran(id, s.context, 0, 'ok')],
  'tool output: function_call_output': (s, id) => [rollout.exec(id, 'make deploy'), rollout.output(id, 2, `make: *** [deploy] Error 2\n${s.context}`)],
  'tool output: CommandExecution aggregated_output': (s, id) => [rollout.ran(id, 'cat .env.local', 0, s.context)],
  'tool input: apply_patch content': (s, id) => [
    rollout.patch(id, `*** Begin Patch\n*** Add File: scripts/setup.sh\n+${s.context.replace(/\n/g, '\n+')}\n*** End Patch`),
    rollout.patchOutput(id, 0, 'Success. Updated the following files:\nA scripts/setup.sh'),
  ],
  'file path: apply_patch path': (s, id) => {
    const path = `config/${asFileName(s)}.cfg`;
    return [rollout.patch(id, `*** Begin Patch\n*** Add File: ${path}\n+port = 8080\n*** End Patch`), rollout.patchOutput(id, 0, `Success. Updated the following files:\nA ${path}`)];
  },
};

const PROMPT = 'hook: UserPromptSubmit prompt';
const STOP = 'hook: Stop last_assistant_message';
const PRECOMPACT = 'hook: PreCompact custom_instructions';
const POSTCOMPACT = 'hook: PostCompact compact_summary';

/** A prompt with the first contexts up front and the last one across the journal's 4,000-character cut. */
function promptWith(ctxs: string[]): string {
  const head = `${ctxs.slice(0, -1).map((c, i) => (i === 0 ? c : `also: ${c}`)).join('\n\n')}\n\n`;
  const filler = 'please keep going with the rollout. '.repeat(120).slice(0, Math.max(0, 3995 - head.length));
  return `${head}${filler}${ctxs[ctxs.length - 1]}`;
}
const stopWith = (ctxs: string[]) => `Done. I used ${ctxs[0]}\n\n${ctxs.slice(1).map((c) => `- ${c}`).join('\n')}\n\nAnything else?`;
const preCompactWith = (ctxs: string[]) => `Keep these when compacting:\n${ctxs.join('\n')}`;
function summaryWith(ctxs: string[]): string {
  // ctxs[1] is the reach marker; the first real context across the objective's 240-character cut.
  const [a, m, b, c, d] = [0, 1, 2, 3, 4].map((i) => ctxs[i] ?? '');
  return [
    `The session deployed the service. The user had pasted ${a}`,
    '<capsule-state>',
    `objective: ${'finish the rollout of the payments service '.repeat(6).slice(0, 225)}${oneLine(b!)}`,
    `waiting_on: ${oneLine(m!)}`,
    `next_valid_action: rotate ${oneLine(c!)}`,
    `done: migrated the schema; ${oneLine(a!)}`,
    `decisions: keep the old endpoint; use ${oneLine(d!)}; ship on Friday`,
    '</capsule-state>',
  ].join('\n');
}

interface HostCase {
  name: string;
  events: HostEvents;
  args: string[];
  session: string;
  transcriptName: string;
  extra: Record<string, unknown>;
  transcriptChannels: string[];
  payloadChannels: string[];
}

const HOSTS: HostCase[] = [
  {
    name: 'Claude Code',
    events: HOOK_EVENTS,
    args: [],
    session: '7c2e9a41-3b5d-4f6e-8a1b-2c3d4e5f6a7b',
    transcriptName: 'session.jsonl',
    extra: {},
    transcriptChannels: Object.keys(CLAUDE_TRANSCRIPT),
    payloadChannels: [PROMPT, STOP, PRECOMPACT, POSTCOMPACT],
  },
  {
    name: 'the Codex CLI',
    events: CODEX_HOOK_EVENTS,
    args: ['--host', 'codex'],
    session: '01a230d4-782a-72d0-ba84-41438a9184ee',
    transcriptName: 'rollout-2026-12-01T08-59-20-01a230d4-782a-72d0-ba84-41438a9184ee.jsonl',
    extra: { model: 'gpt-5.5', turn_id: 't1', permission_mode: 'bypassPermissions' },
    transcriptChannels: Object.keys(CODEX_TRANSCRIPT),
    payloadChannels: [PROMPT, STOP, PRECOMPACT],
  },
];

/** Each host's channels, each with its own values of every shape (seeded by host and channel). */
const SETS = new Map<string, Map<string, RedTeamShape[]>>();
HOSTS.forEach((h, hi) => {
  const m = new Map<string, RedTeamShape[]>();
  [...h.transcriptChannels, ...h.payloadChannels].forEach((c, ci) => m.set(c, plantSet(h.name, c, 4_000 + hi * 100 + ci)));
  SETS.set(h.name, m);
});
const SHAPE_COUNT = redTeam4Shapes(1).length;
const TURNS = Math.ceil(SHAPE_COUNT / PER_TURN);
/** The shapes channel `c` (its `ci`-th) carries in turn `n`: a rotation, so a turn mixes different shapes across channels. */
const slice = (set: RedTeamShape[], ci: number, n: number) =>
  Array.from({ length: PER_TURN }, (_, j) => n * PER_TURN + j)
    .filter((k) => k < set.length)
    .map((k) => set[(k + ci * 9) % set.length]!);

const allLeaks: Leak[] = [];
/** Reach (a diagnostic, not asserted): per host and channel (`hi/ci`, `hi/ci/state`), the turns whose harmless marker reached a git object or hook output, or a state file. */
const reach = new Map<string, Set<number>>();
/** A harmless marker carried by channel `ci` of host `hi` in turn `n` (tells whether the channel reaches the capsule at all). */
const marker = (hi: number, ci: number, n: number) => `reach marker host${hi} chan${ci} turn${n} end`;
const asMarker = (m: string): RedTeamShape => ({ shape: 'marker', cls: 'marker', value: m, context: `see ticket ${m} for the details`, minimal: 12, hard: false });
const MARKER = /reach marker host(\d+) chan(\d+) turn(\d+) end/g;
const timings: Record<string, number> = {};

function report(): void {
  const byShape = new Map<string, Leak[]>();
  for (const l of allLeaks) byShape.set(l.shape, [...(byShape.get(l.shape) ?? []), l]);
  const lines = [`red team 4: ${byShape.size} of ${SHAPE_COUNT} shapes leaked (${allLeaks.length} leak records); times ${JSON.stringify(timings)}`];
  for (const [shape, ls] of byShape) {
    lines.push(`\n## ${shape}  [${ls[0]!.cls}]`);
    const seen = new Set<string>();
    for (const l of ls) {
      const kind = l.where.replace(/ [0-9a-f]{10}.*$/, '').replace(/^(\S+ #\d+: ).*/, '$1');
      const key = `${l.host}|${l.channel}|${kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(`  - ${l.host} / ${l.channel} / ${l.where}\n      ${l.excerpt}`);
    }
  }
  lines.push('\n## reach (diagnostic): turns whose harmless marker reached a git object or hook output / a runtime state file, per host and channel');
  HOSTS.forEach((h, hi) =>
    [...h.transcriptChannels, ...h.payloadChannels].forEach((c, ci) =>
      lines.push(`  ${h.name} / ${c}: git or output ${reach.get(`${hi}/${ci}`)?.size ?? 0} of ${TURNS}, state ${reach.get(`${hi}/${ci}/state`)?.size ?? 0} of ${TURNS}`),
    ),
  );
  console.log(lines.join('\n'));
  if (process.env.RED_TEAM_4_REPORT) {
    const grouped = Object.fromEntries([...byShape].map(([k, v]) => [k, v]));
    const reached = Object.fromEntries([...reach].map(([k, v]) => [k, [...v]]));
    writeFileSync(process.env.RED_TEAM_4_REPORT, JSON.stringify({ shapes: SHAPE_COUNT, leaked: byShape.size, timings, reached, leaks: grouped }, null, 2));
  }
}

afterAll(() => report());

describe.each(HOSTS)('red team 4: every shape in every channel, through the built hooks of $name', (host) => {
  jest.setTimeout(1_800_000);
  let repo: TestRepo;
  let transcript: string;
  const found = new Map<string, Leak>();
  const scanned = new Set<string>();
  let runs = 0;
  const sets = SETS.get(host.name)!;

  function collect(label: string, output: string): void {
    const batches = [
      { where: `${label} hook output`, text: output },
      ...newObjects(repo, scanned).map((o) => ({ where: `${label}: ${o.where}`, text: o.text })),
      ...filesAsText(repo.stateDir).map((f) => ({ where: `${label}: state file ${relative(repo.stateDir, f.path)}`, text: f.text })),
    ];
    for (const b of batches) {
      for (const m of b.text.matchAll(MARKER)) {
        const key = `${m[1]}/${m[2]}${b.where.includes('state file') ? '/state' : ''}`;
        reach.set(key, (reach.get(key) ?? new Set()).add(Number(m[3])));
      }
      for (const l of scan(host.name, b.where, b.text)) {
        const kind = b.where.includes('hook output') ? 'output' : b.where.includes(': git ') ? 'object' : `state:${b.where.replace(/^.*state file /, '')}`;
        const key = `${l.shape}|${l.channel}|${kind}`;
        if (!found.has(key)) found.set(key, l);
      }
    }
  }

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
    collect(`${event} #${runs}`, `${r.stdout}\n${r.stderr}`);
  }

  const hi = HOSTS.indexOf(host);
  const claude = (n: number, t: TranscriptBuilder): string => {
    const before = t.rows.length;
    host.transcriptChannels.forEach((c, ci) =>
      [...slice(sets.get(c)!, ci, n), asMarker(marker(hi, ci, n))].forEach((s, j) => CLAUDE_TRANSCRIPT[c]!(t, s, `toolu_${n}_${ci}_${j}`, repo.dir)),
    );
    return t.rows.slice(before).map((r) => `${JSON.stringify(r)}\n`).join('');
  };
  const codex = (n: number): string => {
    const rows: Row[] = [rollout.turn(repo.dir)];
    host.transcriptChannels.forEach((c, ci) =>
      [...slice(sets.get(c)!, ci, n), asMarker(marker(hi, ci, n))].forEach((s, j) => rows.push(...CODEX_TRANSCRIPT[c]!(s, `call_${n}_${ci}_${j}`))),
    );
    return rows.map((r) => `${JSON.stringify(r.data)}\n`).join('');
  };

  beforeAll(() => {
    if (!existsSync(join(HOOKS, 'stop.js'))) throw new Error(`build first: ${HOOKS} is missing (node scripts/build.mjs)`);
    const started = Date.now();
    repo = makeTestRepo();
    transcript = join(repo.dir, '..', host.transcriptName);
    writeFileSync(transcript, '');
    const t = new TranscriptBuilder(host.session, repo.dir);
    const ci = (c: string) => host.transcriptChannels.length + host.payloadChannels.indexOf(c);
    // The marker goes second, so it is neither the first context nor the one across the cut.
    const ctxs = (c: string, n: number) => {
      const list = slice(sets.get(c)!, ci(c), n).map((s) => s.context);
      return [list[0]!, asMarker(marker(hi, ci(c), n)).context, ...list.slice(1)];
    };
    for (let n = 0; n < TURNS; n++) {
      run('UserPromptSubmit', { prompt: promptWith(ctxs(PROMPT, n)) });
      appendFileSync(transcript, host.name === 'Claude Code' ? claude(n, t) : codex(n));
      run('Stop', { stop_hook_active: false, last_assistant_message: stopWith(ctxs(STOP, n)) });
      run('PreCompact', { trigger: 'manual', custom_instructions: preCompactWith(ctxs(PRECOMPACT, n)) });
      if (host.payloadChannels.includes(POSTCOMPACT)) run('PostCompact', { trigger: 'manual', compact_summary: summaryWith(ctxs(POSTCOMPACT, n)) });
    }
    run('SessionEnd', { reason: 'clear' });
    run('SessionStart', { source: 'clear' });
    timings[host.name] = Math.round((Date.now() - started) / 1000);
    allLeaks.push(...found.values());
  });
  afterAll(() => repo?.cleanup());

  it('plants every shape in every channel and runs the hooks', () => {
    expect(SHAPE_COUNT).toBeGreaterThanOrEqual(60);
    expect(redTeam4Shapes(1).filter((s) => s.hard).length).toBeGreaterThanOrEqual(15);
    // Every shape of every channel went into some turn.
    for (const [c, set] of sets) {
      const ci = [...sets.keys()].indexOf(c);
      const planted = new Set(Array.from({ length: TURNS }, (_, n) => slice(set, ci, n)).flat().map((s) => s.shape));
      expect({ c, n: planted.size }).toEqual({ c, n: SHAPE_COUNT });
    }
    expect(runs).toBeGreaterThan(TURNS * 3);
    expect(repo.git(['rev-list', '--count', 'capsules'])).not.toBe('0');
  });

  it('leaves no planted secret in any object, hook output or runtime file, after every run, beyond the known gaps', () => {
    const leaks = [...found.values()].filter((l) => !KNOWN_GAPS.has(`${l.shape} / ${l.channel}`)).map((l) => `${l.shape} [${l.host} / ${l.channel}]: ${l.excerpt} in ${l.where}`);
    expect(leaks).toEqual([]);
  });
});
