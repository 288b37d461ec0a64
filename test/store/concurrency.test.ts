import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validateCapsuleText } from '../../lib/capsule/validate';
import { openStore } from '../../lib/store/open-store';
import { CLI_BUNDLE } from '../support/run-cli';
import { cleanup, git, makeRepo } from './support/temp-repo';

const run = promisify(execFile);

describe('concurrent writers (built CLI)', () => {
  beforeAll(() => expect(existsSync(CLI_BUNDLE)).toBe(true));

  it('loses nothing when 8 processes write 50 capsules each at once', async () => {
    const { dir, env } = makeRepo();
    const writer = async (w: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let i = 0; i < 50; i += 1) {
        try {
          const { stdout } = await run(process.execPath, [CLI_BUNDLE, 'write', '--objective', `writer ${w} capsule ${i}`, '--waiting-on', 'nothing', '--next', 'count them'], { cwd: dir, env });
          ids.push(stdout.trim());
        } catch (err) {
          throw new Error(`writer ${w} write ${i} failed: ${(err as { stderr?: string }).stderr ?? String(err)}`);
        }
      }
      return ids;
    };
    const ids = (await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(writer))).flat();
    expect(new Set(ids).size).toBe(400);
    const store = await openStore({ cwd: dir, env });
    try {
      expect(await store.countByStatus()).toMatchObject({ active: 400 });
      const listed = new Set((await store.listIndex()).map((e) => e.id));
      expect(ids.filter((id) => !listed.has(id))).toEqual([]);
      expect(await store.rebuildIndex({ now: new Date() })).toMatchObject({ changed: false, count: 400 });
    } finally {
      await store.close();
    }
    expect(git(dir, ['rev-list', '--count', 'capsules'], env)).toBe('401');
    cleanup(dir);
  }, 300_000);
});

describe('a writer killed with SIGKILL', () => {
  it('leaves the branch valid (git fsck clean) and no half-written capsule visible', async () => {
    const { dir, env } = makeRepo();
    const killedAt: number[] = [];
    for (let round = 0; round < 16; round += 1) {
      // A process group, so the kill also reaches git fast-import mid-stream.
      const child = spawn(process.execPath, [CLI_BUNDLE, 'write', '--objective', `round ${round}`, '--waiting-on', 'nothing', '--next', 'survive'], { cwd: dir, env, detached: true, stdio: 'ignore' });
      const delay = Math.floor(Math.random() * 120);
      killedAt.push(delay);
      await new Promise((r) => setTimeout(r, delay));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already exited: the write completed before the kill, which is a valid outcome too
      }
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(() => git(dir, ['fsck', '--strict', '--no-progress'], env)).not.toThrow();
    const store = await openStore({ cwd: dir, env });
    try {
      if (await store.exists()) {
        const entries = await store.listIndex();
        const texts = await store.readTexts(entries.map((e) => e.id));
        for (const e of entries) expect(validateCapsuleText(texts.get(e.id) ?? '').problems).toEqual([]);
        expect(await store.rebuildIndex({ now: new Date() })).toMatchObject({ changed: false });
      }
      const { stdout } = await run(process.execPath, [CLI_BUNDLE, 'write', '--objective', 'after the kills', '--waiting-on', 'nothing', '--next', 'check'], { cwd: dir, env });
      expect((await store.readCapsule(stdout.trim())).status).toBe('active');
    } finally {
      await store.close();
    }
    expect(readdirSync(join(dir, '.git', 'refs', 'heads')).filter((f) => f.endsWith('.lock'))).toEqual([]);
    cleanup(dir);
  }, 120_000);
});
