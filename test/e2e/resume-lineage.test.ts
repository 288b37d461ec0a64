import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realClientDescribe, resumeBlockIn, StreamHarness, type StreamSession } from './support/stream-session';

/** Fake-API rules: each marker makes the model edit a file or run a failing command of its own. */
function rulesFor(markers: Record<string, { write?: string; fail?: string; next?: string }>, extra: unknown[] = []): { rules: unknown[] } {
  // After a marker's failure the model states its next step, as an agent does ("Next I will…").
  const stated = Object.values(markers).flatMap((m) => (m.fail && m.next ? [{ name: `${m.fail}-next`, when: { lastIsToolResult: true, toolResultText: m.fail.split(' ')[0] }, respond: { text: `That failed. ${m.next}` } }] : []));
  const work = Object.entries(markers).flatMap(([marker, m]) => [
    ...(m.fail ? [{ name: `${marker}-fails`, when: { prompt: marker }, respond: { tool_use: { name: 'Bash', input: { command: `echo '${m.fail}' >&2; exit 3`, description: `run ${marker}` } } } }] : []),
    ...(m.write ? [{ name: `${marker}-writes`, when: { prompt: marker }, respond: { tool_use: { name: 'Write', input: { file_path: `{{cwd}}/${m.write}`, content: `${marker}\n` } } } }] : []),
  ]);
  return {
    rules: [
      { name: 'compact-summary', when: { lastUserText: 'Respond with TEXT ONLY|summary of the conversation|detailed summary' }, respond: { text: '<summary>LINEAGE-COMPACT-SUMMARY</summary>', input_tokens: 1000 } },
      { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
      ...stated,
      { name: 'after-failure', when: { lastIsToolResult: true, toolResultText: 'Exit code' }, respond: { text: 'That failed; I will look at it next.' } },
      { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
      ...extra,
      ...work,
      { name: 'default-text', when: { any: true }, respond: { text: 'ok' } },
    ],
  };
}

/** The resume text injected into the first request that carries `marker` (the turn typed after a /clear). */
function resumeBefore(h: StreamHarness, marker: string): string {
  const request = h.firstRequestWith(marker);
  if (!request) throw new Error(`no request carries ${marker}`);
  return resumeBlockIn(request.text);
}

/** The objective line of a resume block (it must have one). */
function objectiveOf(block: string): string {
  const line = /^\s*objective: (.+)$/m.exec(block)?.[1];
  if (!line) throw new Error(`no objective in the resume block:\n${block}`);
  return line;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

/** Every capsule on the branch: its session, and the writers of its `resumed` events. */
function capsulesOn(repo: string): Array<{ id: string; session: string; consumedBy: string[] }> {
  const files = git(repo, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules').split('\n');
  return files
    .filter((f) => f.endsWith('/capsule.md'))
    .map((f) => {
      const dir = f.slice(0, -'/capsule.md'.length);
      const text = git(repo, 'show', `refs/heads/capsules:${f}`);
      const session = /^session_id: "?([^"\n]+)"?$/m.exec(text)?.[1] ?? '';
      const consumedBy = files.filter((e) => e.startsWith(`${dir}/status/`) && e.endsWith('-resumed')).map((e) => e.split('/').pop()!.replace(/^\d{8}T\d{9}Z-/, '').replace(/-resumed$/, ''));
      return { id: dir.split('/').pop()!, session, consumedBy };
    });
}

function errorLog(repo: string): string {
  try {
    return readFileSync(join(repo, '.git', 'capsule', 'errors.log'), 'utf8');
  } catch {
    return '';
  }
}

// (a) Two sessions in one repository, interleaved turns, each cleared in turn: each resume hands
// back only that session's own objective, files, errors and next step, and neither session
// consumes the other's capsule.
realClientDescribe('two concurrent sessions in one repository, each cleared in turn', () => {
  let h: StreamHarness;
  let a: StreamSession;
  let b: StreamSession;
  const ids: Record<'a' | 'b', string[]> = { a: [], b: [] };
  beforeAll(async () => {
    h = await StreamHarness.start({
      name: 'two-sessions',
      script: rulesFor({ 'ALPHA-EDIT': { write: 'alpha.txt' }, 'ALPHA-TEST': { fail: 'ALPHA-ERROR parser test failed', next: 'Next I will fix the parser so ALPHA-TEST passes.' }, 'BETA-EDIT': { write: 'beta.txt' }, 'BETA-TEST': { fail: 'BETA-ERROR lexer test failed', next: 'Next I will fix the lexer so BETA-TEST passes.' } }),
    });
    a = h.session({ name: 'a' });
    b = h.session({ name: 'b' });
    await a.send('Build the parser for objective alpha ALPHA-EDIT');
    await b.send('Fix the lexer for objective beta BETA-EDIT');
    await a.send('ALPHA-TEST run the parser test');
    await b.send('BETA-TEST run the lexer test');
    await a.clear();
    await a.send('ALPHA-AFTER-CLEAR what now?');
    await b.send('BETA-MORE still working on the lexer');
    await b.clear();
    await b.send('BETA-AFTER-CLEAR what now?');
    await a.clear();
    await a.send('ALPHA-AFTER-SECOND-CLEAR what now?');
    ids.a = [...a.sessionIds];
    ids.b = [...b.sessionIds];
    await Promise.all([a.close(), b.close()]);
  }, 600_000);
  afterAll(async () => h?.close());

  it("gives session A's /clear only A's objective, file, error and next step", () => {
    const block = resumeBefore(h, 'ALPHA-AFTER-CLEAR');
    expect(block).toContain('objective alpha');
    expect(block).toContain('alpha.txt');
    expect(block).toContain('ALPHA-ERROR');
    expect(block).toMatch(/next_valid_action: "Fix the parser so ALPHA-TEST passes"/);
    expect(block).not.toMatch(/BETA|beta\.txt/);
  });

  it("gives session B's /clear only B's work, even after A cleared first", () => {
    const block = resumeBefore(h, 'BETA-AFTER-CLEAR');
    expect(block).toContain('objective beta');
    expect(block).toContain('beta.txt');
    expect(block).toContain('BETA-ERROR');
    // B's last turn before its /clear only chatted ("still working on the lexer"): the step it stated stays.
    expect(block).toMatch(/next_valid_action: "Fix the lexer so BETA-TEST passes"/);
    expect(block).not.toMatch(/ALPHA|alpha\.txt/);
  });

  it('names the lineage in CAPSULE DATA', () => {
    const block = resumeBefore(h, 'ALPHA-AFTER-CLEAR');
    expect(block).toContain(`lineage: continues session "${ids.a[0]}" which ended with /clear`);
    expect(block).toContain("selected by: this session's own lineage");
  });

  it("keeps A's work through A's second /clear", () => {
    const block = resumeBefore(h, 'ALPHA-AFTER-SECOND-CLEAR');
    expect(block).toContain('objective alpha');
    expect(block).toContain('ALPHA-ERROR');
    expect(block).not.toMatch(/BETA|beta\.txt/);
  });

  it("never lets one session consume the other's capsule", () => {
    expect(ids.a).toHaveLength(3);
    expect(ids.b).toHaveLength(2);
    const lineageOf = (session: string) => (ids.a.includes(session) ? 'a' : ids.b.includes(session) ? 'b' : 'none');
    const capsules = capsulesOn(h.repo);
    expect(capsules.length).toBeGreaterThanOrEqual(4);
    for (const c of capsules) {
      for (const consumer of c.consumedBy) expect({ capsule: c.id, by: lineageOf(consumer) }).toEqual({ capsule: c.id, by: lineageOf(c.session) });
    }
    expect(capsules.filter((c) => c.consumedBy.length > 0).map((c) => lineageOf(c.session)).sort()).toEqual(['a', 'a', 'b']);
  });

  it('logs no hook errors', () => {
    expect(errorLog(h.repo)).toBe('');
  });
});

// (b) Three /clears in a row in one session, with work between them: the third resume still
// carries the files, errors and objective from before the first.
realClientDescribe('three /clears in a row with work between them', () => {
  let h: StreamHarness;
  beforeAll(async () => {
    h = await StreamHarness.start({
      name: 'three-clears',
      script: rulesFor({ 'GAMMA-EDIT': { write: 'gamma.txt' }, 'GAMMA-TEST': { fail: 'GAMMA-ERROR exporter test failed', next: 'Next I will fix the exporter so GAMMA-TEST passes.' }, 'SECOND-EDIT': { write: 'second.txt' }, 'THIRD-EDIT': { write: 'third.txt' } }),
    });
    const s = h.session({ name: 'g' });
    await s.send('Make the exporter stream for objective gamma GAMMA-EDIT');
    await s.send('GAMMA-TEST run the exporter test');
    await s.clear();
    await s.send('SECOND-EDIT keep going');
    await s.clear();
    await s.send('THIRD-EDIT and more');
    await s.clear();
    await s.send('AFTER-THIRD-CLEAR where are we?');
    await s.close();
  }, 600_000);
  afterAll(async () => h?.close());

  it('hands the third resume the objective, file and error from before the first /clear', () => {
    const block = resumeBefore(h, 'AFTER-THIRD-CLEAR');
    // The objective the first /clear handed back, word for word: no session in between replaced it.
    const first = objectiveOf(resumeBefore(h, 'SECOND-EDIT'));
    expect(first).toMatch(/exporter/);
    expect(objectiveOf(block)).toBe(first);
    expect(block).toContain('gamma.txt');
    expect(block).toContain('GAMMA-ERROR');
  });

  it('hands the first resume the next step the agent stated before the /clear', () => {
    expect(resumeBefore(h, 'SECOND-EDIT')).toMatch(/next_valid_action: "Fix the exporter so GAMMA-TEST passes"/);
  });

  it('also carries what each session in between added', () => {
    const block = resumeBefore(h, 'AFTER-THIRD-CLEAR');
    expect(block).toContain('second.txt');
    expect(block).toContain('third.txt');
    expect(block).toMatch(/parent_capsule_id: "[0-9A-Z]{26}"/);
  });

  it('logs no hook errors', () => {
    expect(errorLog(h.repo)).toBe('');
  });
});

// (c) An automatic compaction, driven by the token usage the fake API reports (harness README
// §6), then later a /clear: the facts from before the compaction reach the session after the clear.
realClientDescribe('an automatic compaction, then a /clear', () => {
  let h: StreamHarness;
  let ids: string[] = [];
  beforeAll(async () => {
    const big = { name: 'big-turn', when: { prompt: 'FILL-THE-CONTEXT' }, respond: { input_tokens: 90000, tool_use: { name: 'Bash', input: { command: 'echo big', description: 'big turn' } } } };
    h = await StreamHarness.start({
      name: 'compact-then-clear',
      script: rulesFor({ 'DELTA-EDIT': { write: 'delta.txt' }, 'DELTA-TEST': { fail: 'DELTA-ERROR cache test failed' }, 'AFTER-COMPACT-EDIT': { write: 'after-compact.txt' } }, [big]),
      args: ['--autocompact', '100000'],
    });
    const s = h.session({ name: 'd' });
    await s.send('Make the cache faster for objective delta DELTA-EDIT');
    await s.send('DELTA-TEST run the cache test');
    await s.send('FILL-THE-CONTEXT read everything');
    await s.send('AFTER-COMPACT-EDIT continue the cache work');
    await s.clear();
    await s.send('AFTER-CLEAR what now?');
    ids = [...s.sessionIds];
    await s.close();
  }, 600_000);
  afterAll(async () => h?.close());

  it('compacts automatically: the summary request was made', () => {
    expect(h.requests().some((r) => r.rule === 'compact-summary')).toBe(true);
  });

  it('resumes the pre-compact checkpoint after the compaction', () => {
    const after = h.requests().find((r) => r.text.includes('LINEAGE-COMPACT-SUMMARY') && r.text.includes('GIT-CAPSULE RESUME'));
    expect(after).toBeDefined();
    const block = resumeBlockIn(after!.text);
    expect(block).toContain('trigger "pre-compact"');
    expect(block).toContain('objective delta');
  });

  it('hands the session after the /clear the facts from before the compaction', () => {
    const block = resumeBefore(h, 'AFTER-CLEAR what now');
    // The objective the pre-compact checkpoint carried, word for word.
    const checkpoint = h.requests().find((r) => r.text.includes('LINEAGE-COMPACT-SUMMARY') && r.text.includes('GIT-CAPSULE RESUME'));
    const before = objectiveOf(resumeBlockIn(checkpoint!.text));
    expect(before).toMatch(/cache/);
    expect(objectiveOf(block)).toBe(before);
    expect(block).toContain('delta.txt');
    expect(block).toContain('DELTA-ERROR');
    expect(block).toContain('after-compact.txt');
    expect(ids.length).toBeGreaterThanOrEqual(2);
  });

  it('logs no hook errors', () => {
    expect(errorLog(h.repo)).toBe('');
  });
});
