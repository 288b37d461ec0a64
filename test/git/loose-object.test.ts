import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loosePath, readLooseObject, writeLooseObject } from '../../lib/git/loose-object';

/** An empty repository and a git bound to it. */
function makeRepo() {
  const root = mkdtempSync(join(tmpdir(), 'capsule-loose-'));
  const dir = join(root, 'repo');
  const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(root, '.gitconfig') };
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env });
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', input }).trim();
  return { dir, objects: join(dir, '.git', 'objects'), git, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

describe('loose objects written without git', () => {
  let repo: ReturnType<typeof makeRepo>;
  beforeEach(() => {
    repo = makeRepo();
  });
  afterEach(() => repo.cleanup());

  it('get the id git gives them and read back as git reads them', () => {
    const oid = writeLooseObject(repo.objects, 'blob', Buffer.from('status: active\n'));
    expect(oid).toBe(repo.git(['hash-object', '--stdin'], 'status: active\n'));
    expect(repo.git(['cat-file', '-p', oid])).toBe('status: active');
    expect(readLooseObject(repo.objects, oid)).toEqual({ type: 'blob', content: Buffer.from('status: active\n') });
    expect(repo.git(['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('freshen an old unreachable object they find already there, so a prune running beside the write keeps it', () => {
    const oid = repo.git(['hash-object', '-w', '--stdin'], '{"active":3}\n');
    const yearAgo = new Date(Date.now() - 365 * 86_400_000);
    utimesSync(loosePath(repo.objects, oid), yearAgo, yearAgo);
    expect(writeLooseObject(repo.objects, 'blob', Buffer.from('{"active":3}\n'))).toBe(oid);
    expect(statSync(loosePath(repo.objects, oid)).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    // What a `git gc` that listed the reachable objects before this write's ref moved would do:
    repo.git(['prune', '--expire=2.weeks.ago']);
    expect(repo.git(['cat-file', '-t', oid])).toBe('blob');
  });
});
