import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { refuseCheckedOut, worktreesHolding } from '../../lib/git/checked-out';
import { DEFAULT_MEMORY_REF } from '../../lib/store/memory-format';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';

// Issue 16, item 6: the memory branch checked out in a worktree (the main one or a linked one) is
// never moved by a write: that worktree's HEAD would move under its files and `git status` there
// would show the reverse of every write, staged. The built Stop hook says so and loses nothing:
// the turn is autosaved by the first Stop after the worktree leaves the branch.
const STOP = join(__dirname, '..', '..', 'dist', 'hooks', 'stop.js');
const SESSION = '5c1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
let repo: TestRepo;
beforeEach(async () => {
  repo = makeTestRepo();
  await repo.withStore((s) => s.writeCapsule(capsuleDoc({ id: ulid(1) }), { now: new Date() }));
});
afterEach(() => repo.cleanup());

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, env: repo.env, encoding: 'utf8' }).trim();

function stop(transcript: string): { code: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [STOP], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir },
    input: JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: repo.dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' }),
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { code: r.status, stdout: r.stdout };
}

function writeTranscript(): string {
  const path = join(repo.dir, '..', 'checked-out-transcript.jsonl');
  writeFileSync(path, `${JSON.stringify({ type: 'user', sessionId: SESSION, uuid: 'u1', timestamp: '2026-11-29T21:00:00.000Z', message: { role: 'user', content: 'rename the parser module to tokenizer' } })}\n`);
  return path;
}

describe('a memory branch checked out in a worktree', () => {
  it.each([
    ['a linked worktree', (): string => {
      const wt = join(repo.dir, '..', 'memory-wt');
      git(repo.dir, ['worktree', 'add', '-q', wt, 'capsules']);
      return wt;
    }],
    ['the main worktree', (): string => {
      git(repo.dir, ['switch', '-q', 'capsules']);
      return repo.dir;
    }],
  ])('in %s is not moved by Stop, which says so, and the turn is autosaved once it is free', (_where, checkOut) => {
    const wt = checkOut();
    const tip = git(repo.dir, ['rev-parse', DEFAULT_MEMORY_REF]);
    const transcript = writeTranscript();

    const blocked = stop(transcript);
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toContain('[MEMORY_REF_CHECKED_OUT]');
    expect(git(repo.dir, ['rev-parse', DEFAULT_MEMORY_REF])).toBe(tip);
    expect(git(wt, ['status', '--porcelain'])).toBe('');

    git(wt, ['switch', '-q', '--detach']);
    expect(stop(transcript).stdout).not.toContain('[MEMORY_REF_CHECKED_OUT]');
    expect(git(repo.dir, ['log', '-p', '-1', DEFAULT_MEMORY_REF])).toContain('rename the parser module to tokenizer');
  });

  it('names the worktrees that hold the ref, and none in a bare repository', () => {
    const wt = join(repo.dir, '..', 'memory-wt2');
    git(repo.dir, ['worktree', 'add', '-q', wt, 'capsules']);
    const common = join(repo.dir, '.git');
    expect(worktreesHolding(common, DEFAULT_MEMORY_REF, { bare: false })).toEqual([wt]);
    expect(() => refuseCheckedOut(common, DEFAULT_MEMORY_REF, { bare: false })).toThrow(expect.objectContaining({ code: 'MEMORY_REF_CHECKED_OUT' }));
    git(wt, ['switch', '-q', '--detach']);
    expect(worktreesHolding(common, DEFAULT_MEMORY_REF, { bare: false })).toEqual([]);
    git(repo.dir, ['symbolic-ref', 'HEAD', DEFAULT_MEMORY_REF]);
    expect(worktreesHolding(common, DEFAULT_MEMORY_REF, { bare: true })).toEqual([]);
  });
});
