import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCapsule } from '../../lib/capsule/parse';
import type { CapsuleDocument } from '../../lib/capsule/types';
import { CLI_BUNDLE } from '../support/run-cli';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';

// Two sessions in one repository, each with a subagent's sidechain in its transcript, run their
// built Stop hooks at the same moments while a third process writes capsules by hand. Each
// session keeps exactly one autosave with every one of its turns and none of the other's.
const STOP_HOOK = join(__dirname, '..', '..', 'dist', 'hooks', 'stop.js');
const TURNS = Number(process.env.CONCURRENT_TURNS ?? 8);

function run(cmd: string[], repo: TestRepo, input: string | null): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cmd, { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(input ?? '');
  });
}

describe('concurrent sessions in one repository', () => {
  jest.setTimeout(300_000);

  it('keep one autosave each, never mixed, with every turn, while a third process writes', async () => {
    if (!existsSync(STOP_HOOK)) throw new Error(`build first: ${STOP_HOOK} is missing (npm test builds it)`);
    const repo = makeTestRepo();
    const root = mkdtempSync(join(tmpdir(), 'capsule-concurrent-'));
    try {
      const sessions = ['session-A', 'session-B'].map((id) => ({ id, path: join(root, `${id}.jsonl`), t: new TranscriptBuilder(id, repo.dir) }));
      for (const s of sessions) {
        s.t.user(`Refactor the ${s.id} module`);
        writeFileSync(s.path, s.t.text());
      }
      const manual: string[] = [];
      for (let n = 0; n < TURNS; n++) {
        const hooks = sessions.map((s) => {
          const before = s.t.rows.length;
          s.t.toolUse(`toolu_${s.id}_${n}`, 'Edit', { file_path: `${repo.dir}/src/${s.id}-file-${n}.ts`, old_string: 'a', new_string: 'b' });
          s.t.toolResult(`toolu_${s.id}_${n}`, 'The file has been updated.');
          if (n % 3 === 0) {
            s.t.toolUse(`toolu_${s.id}_${n}_sub`, 'Read', { file_path: `${repo.dir}/docs/${s.id}-subagent-${n}.md` }, { isSidechain: true });
            s.t.toolResult(`toolu_${s.id}_${n}_sub`, 'notes', false, { isSidechain: true });
          }
          appendFileSync(s.path, s.t.rows.slice(before).map((r) => JSON.stringify(r)).join('\n') + '\n');
          const input = JSON.stringify({ session_id: s.id, transcript_path: s.path, cwd: repo.dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: `turn ${n} done` });
          return run([STOP_HOOK], repo, input);
        });
        const third = run([CLI_BUNDLE, 'write', '--objective', `manual ${n}`, '--waiting-on', 'nothing', '--next', 'review'], repo, null);
        const [a, b, m] = await Promise.all([...hooks, third]);
        expect([a!.code, b!.code, m!.code]).toEqual([0, 0, 0]);
        // The hooks fail open (exit 0) but say so: a systemMessage here means a lost autosave.
        expect([a!.stdout, b!.stdout]).toEqual(['', '']);
        manual.push(m!.stdout.trim());
      }

      const paths = repo.git(['ls-tree', '-r', '--name-only', 'capsules']).split('\n').filter((p) => p.endsWith('/capsule.md'));
      const docs = paths.map((p) => parseCapsule(repo.git(['show', `capsules:${p}`])).doc).filter((d): d is CapsuleDocument => d !== null);
      for (const id of manual) expect(docs.some((d) => d.frontmatter.id === id)).toBe(true);
      for (const s of sessions) {
        const mine = docs.filter((d) => d.frontmatter.session_id === s.id && d.frontmatter.trigger === 'autosave');
        expect(mine).toHaveLength(1);
        const text = JSON.stringify(mine[0]);
        const other = sessions.find((o) => o !== s)!.id;
        expect(text).not.toContain(other);
        for (let n = 0; n < TURNS; n++) expect(text).toContain(`${s.id}-file-${n}.ts`);
      }
      expect(() => repo.git(['fsck', '--no-dangling', '--no-progress'])).not.toThrow();
    } finally {
      repo.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
