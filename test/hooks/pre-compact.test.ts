import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { makePreCompactHook } from '../../lib/hooks/pre-compact';
import type { HookSpec } from '../../lib/hooks/run-hook';
import { makeSessionStartHook } from '../../lib/hooks/session-start';
import { makeStopHook } from '../../lib/hooks/stop';
import type { HookEventName } from '../../lib/hosts/host';
import { STATE_BLOCK_REQUEST } from '../../lib/transcript/summary-state';
import { branchDocs, git, makeTempRepo, payload, runHookIn, turnRecords, type TempRepo } from './hook-fixtures';
import { autosavesInFlight } from '../../lib/local-state/autosave-in-flight';

const NOW = new Date('2026-11-29T21:00:00Z');

describe('makePreCompactHook', () => {
  let repo: TempRepo;
  let transcript: string;
  beforeEach(() => {
    repo = makeTempRepo();
    transcript = join(repo.dir, '..', 'transcript.jsonl');
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'build the widget', write: `${repo.dir}/w.ts`, failing: 'npm test' }));
  });
  afterEach(() => repo.cleanup());

  const run = <E extends HookEventName>(spec: HookSpec<E>, extra: Record<string, unknown>) => runHookIn(repo, spec, { transcript_path: transcript, ...extra }, NOW);
  const docs = () => branchDocs(repo.dir);

  it('commits a pre-compact checkpoint beside the autosave and asks the summary to keep its id', async () => {
    const out = await run(makePreCompactHook(defaultDeps), { trigger: 'auto' });
    const checkpoint = docs().find((d) => d.frontmatter.trigger === 'pre-compact')!;
    expect(checkpoint).toBeDefined();
    expect(docs().map((d) => d.frontmatter.trigger).sort()).toEqual(['autosave', 'pre-compact']);
    expect(checkpoint.sections.files).toContain('modified: w.ts');
    const [first, ...request] = out.stdout.trimEnd().split('\n');
    expect(first).toContain(String(checkpoint.frontmatter.id));
    expect(request.join('\n')).toBe(STATE_BLOCK_REQUEST);
    expect(() => JSON.parse(out.stdout)).toThrow();
  });

  // Stop runs in the background: a /compact right after a turn can meet that turn's Stop starting late; it waits for this fold.
  it('marks its fold in flight while it opens the store and commits, and clears the mark after', async () => {
    const session = String(payload('PreCompact').session_id);
    let seen: string[] = [];
    const watching = { ...defaultDeps, openStore: (o: Parameters<typeof defaultDeps.openStore>[0]) => ((seen = autosavesInFlight(repo.stateDir, NOW, { sessionId: session }).map((m) => m.sessionId)), defaultDeps.openStore(o)) };
    await run(makePreCompactHook(watching), { trigger: 'manual' });
    expect(seen).toEqual([session]);
    // On a loaded machine the runner may answer at its budget while the fold still commits: wait for the fold's end.
    const inFlight = () => autosavesInFlight(repo.stateDir, NOW, { sessionId: session });
    for (let i = 0; i < 300 && inFlight().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(inFlight()).toEqual([]);
  });

  it('links the session that continues after compaction under a new id to the checkpoint', async () => {
    await run(makePreCompactHook(defaultDeps), { trigger: 'auto' });
    const checkpointId = JSON.parse(readFileSync(join(repo.stateDir, 'compact-marker.json'), 'utf8')).capsuleId;
    const next = 'c0ffee00-0000-4000-8000-000000000002';
    await run(makeSessionStartHook(defaultDeps), { source: 'compact', session_id: next });
    expect(existsSync(join(repo.stateDir, 'compact-marker.json'))).toBe(false);
    const nextTranscript = join(repo.dir, '..', 'next.jsonl');
    writeFileSync(nextTranscript, turnRecords({ cwd: repo.dir, n: 5, write: `${repo.dir}/after.ts`, sessionId: next }));
    await run(makeStopHook(defaultDeps), { session_id: next, transcript_path: nextTranscript });
    const continued = docs().find((d) => d.frontmatter.session_id === next)!;
    expect(continued.frontmatter.parent_capsule_id).toBe(checkpointId);
  });

  it('writes nothing and says nothing for a session that captured nothing', async () => {
    writeFileSync(transcript, '');
    const out = await run(makePreCompactHook(defaultDeps), { trigger: 'manual' });
    expect(out).toEqual({ stdout: '' });
    expect(() => git(repo.dir, 'rev-parse', '-q', '--verify', 'refs/heads/capsules')).toThrow();
  });
});
