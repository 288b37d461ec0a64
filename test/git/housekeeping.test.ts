import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitRunner, type GitRunner } from '../../lib/git/git-runner';
import { countPacks, estimateLooseObjects, keepsImportPacks, LOOSE_OBJECTS_MAX, PACKS_MAX, scheduleHousekeeping } from '../../lib/git/housekeeping';
import { makeIsolatedRepo, type IsolatedRepo } from '../support/repo';

/** A runner double that records what would start in the background. */
function recorder(): GitRunner & { started: string[][] } {
  const started: string[][] = [];
  return { cwd: '/', env: {}, run: async () => ({ stdout: '', stderr: '', exitCode: 0 }), background: (args) => void started.push([...args]), started };
}

/** `n` distinct loose blobs, written by git itself. */
function looseBlobs(repo: IsolatedRepo, n: number): void {
  const env = repo.env;
  const names = Array.from({ length: n }, (_, i) => join(repo.root, 'blobs', `b${i}`));
  mkdirSync(join(repo.root, 'blobs'), { recursive: true });
  names.forEach((p, i) => writeFileSync(p, `loose blob ${i}\n`));
  execFileSync('git', ['hash-object', '-w', '--stdin-paths'], { cwd: repo.dir, env, input: names.join('\n') });
}

const loose = (repo: IsolatedRepo) => Number(/^count: (\d+)/m.exec(repo.git(['count-objects', '-v']))![1]);

describe('estimateLooseObjects', () => {
  it('scales what four fanout folders hold to all 256, ignoring what is not an object', () => {
    const repo = makeIsolatedRepo();
    try {
      // A folder of its own: the repository's own objects (its first commit's id follows the clock) may land in a sampled folder.
      const objects = join(repo.root, 'objects');
      for (const folder of ['17', '5a']) {
        mkdirSync(join(objects, folder), { recursive: true });
        for (let i = 0; i < 3; i += 1) writeFileSync(join(objects, folder, `${String(i).repeat(38)}`), '');
        writeFileSync(join(objects, folder, 'tmp_obj_abc'), '');
      }
      expect(estimateLooseObjects(objects)).toBe(Math.round((6 * 256) / 4));
      expect(estimateLooseObjects(join(repo.root, 'nowhere'))).toBe(0);
    } finally {
      repo.cleanup();
    }
  });
});

describe('scheduleHousekeeping', () => {
  it('starts nothing while the loose objects stay under the bound', () => {
    const repo = makeIsolatedRepo();
    try {
      looseBlobs(repo, 200);
      const git = recorder();
      expect(scheduleHousekeeping(git, { objectsDir: join(repo.dir, '.git', 'objects') })).toBe(false);
      expect(scheduleHousekeeping(git, { objectsDir: null })).toBe(false);
      expect(git.started).toEqual([]);
    } finally {
      repo.cleanup();
    }
  });

  it('past the bound, starts the one git job that packs loose objects without walking history', () => {
    const repo = makeIsolatedRepo();
    try {
      looseBlobs(repo, 3 * LOOSE_OBJECTS_MAX);
      const git = recorder();
      expect(scheduleHousekeeping(git, { objectsDir: join(repo.dir, '.git', 'objects') })).toBe(true);
      expect(git.started).toEqual([['maintenance', 'run', '--task=loose-objects', '--quiet']]);
    } finally {
      repo.cleanup();
    }
  });

  it('after a write that kept its pack (loose: false), counts only the packs: that write left no loose object', () => {
    const repo = makeIsolatedRepo();
    try {
      looseBlobs(repo, 3 * LOOSE_OBJECTS_MAX);
      const git = recorder();
      expect(scheduleHousekeeping(git, { objectsDir: join(repo.dir, '.git', 'objects'), loose: false })).toBe(false);
      expect(git.started).toEqual([]);
    } finally {
      repo.cleanup();
    }
  });

  it("packs a real repository's loose objects in the background, leaving its packs alone", async () => {
    const repo = makeIsolatedRepo({ commits: 30 });
    try {
      repo.git(['gc', '-q']);
      const packs = readdirSync(join(repo.dir, '.git', 'objects', 'pack')).filter((f) => f.endsWith('.pack'));
      looseBlobs(repo, 3 * LOOSE_OBJECTS_MAX);
      const objects = join(repo.dir, '.git', 'objects');
      const git = createGitRunner({ cwd: repo.dir, env: repo.env });
      for (let round = 0; round < 2; round += 1) {
        // Round one packs them; round two deletes the loose copies the first one packed.
        expect(scheduleHousekeeping(git, { objectsDir: objects, max: 100 })).toBe(true);
        await until(() => !existsSync(join(objects, 'maintenance.lock')) && (round === 0 ? readdirSync(join(objects, 'pack')).some((f) => f.startsWith('loose-') && f.endsWith('.pack')) : loose(repo) === 0));
      }
      expect(loose(repo)).toBe(0);
      for (const p of packs) expect(existsSync(join(objects, 'pack', p))).toBe(true);
      expect(repo.git(['fsck', '--no-dangling'])).toBe('');
    } finally {
      repo.cleanup();
    }
  }, 60_000);
});

/** `n` small packs of one blob each, as hook writes leave them (each blob packed by git itself). */
let packed = 0;
function smallPacks(repo: IsolatedRepo, n: number): string[] {
  const oids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const oid = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.dir, env: repo.env, input: `small pack ${(packed += 1)}\n`, encoding: 'utf8' }).trim();
    execFileSync('git', ['pack-objects', '-q', join('.git', 'objects', 'pack', 'pack')], { cwd: repo.dir, env: repo.env, input: `${oid}\n` });
    oids.push(oid);
  }
  repo.git(['prune-packed']);
  return oids;
}

const packNames = (objects: string) => readdirSync(join(objects, 'pack')).filter((f) => f.endsWith('.pack'));

describe('small packs', () => {
  it('are counted, with whether any is a promisor pack (a partial clone)', () => {
    const repo = makeIsolatedRepo();
    try {
      const objects = join(repo.dir, '.git', 'objects');
      smallPacks(repo, 3);
      expect(countPacks(objects)).toEqual({ packs: 3, promisor: false });
      expect(keepsImportPacks(objects)).toBe(true);
      writeFileSync(join(objects, 'pack', packNames(objects)[0]!.replace(/\.pack$/, '.promisor')), '');
      expect(countPacks(objects)).toEqual({ packs: 3, promisor: true });
      expect(keepsImportPacks(objects)).toBe(false);
      expect(keepsImportPacks(null)).toBe(false);
      expect(countPacks(join(repo.root, 'nowhere'))).toEqual({ packs: 0, promisor: false });
    } finally {
      repo.cleanup();
    }
  });

  it('past the bound, start the geometric repack that rolls them into one; in a partial clone, nothing', () => {
    const repo = makeIsolatedRepo();
    try {
      const objects = join(repo.dir, '.git', 'objects');
      smallPacks(repo, PACKS_MAX);
      const git = recorder();
      expect(scheduleHousekeeping(git, { objectsDir: objects })).toBe(false);
      smallPacks(repo, 1);
      expect(scheduleHousekeeping(git, { objectsDir: objects })).toBe(true);
      expect(git.started).toEqual([['repack', '-d', '-l', '-q', '--geometric=2']]);
      writeFileSync(join(objects, 'pack', packNames(objects)[0]!.replace(/\.pack$/, '.promisor')), '');
      expect(scheduleHousekeeping(git, { objectsDir: objects })).toBe(false);
      expect(git.started).toHaveLength(1);
    } finally {
      repo.cleanup();
    }
  });

  it("are rolled into one in the background in a real repository, the project's pack left as it was", async () => {
    const repo = makeIsolatedRepo({ commits: 30 });
    try {
      repo.git(['gc', '-q']);
      const objects = join(repo.dir, '.git', 'objects');
      const [project] = packNames(objects);
      // Eight one-object packs beside the project's ~30 objects: twice their sum is still less.
      const oids = smallPacks(repo, 8);
      const git = createGitRunner({ cwd: repo.dir, env: repo.env });
      expect(scheduleHousekeeping(git, { objectsDir: objects, maxPacks: 5 })).toBe(true);
      await until(() => packNames(objects).length === 2);
      expect(packNames(objects)).toContain(project);
      for (const oid of oids) expect(repo.git(['cat-file', '-t', oid])).toBe('blob');
      expect(loose(repo)).toBe(0);
      expect(repo.git(['fsck', '--no-dangling'])).toBe('');
    } finally {
      repo.cleanup();
    }
  }, 60_000);
});

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i += 1) await new Promise((r) => setTimeout(r, 100));
  if (!done()) throw new Error('the background job did not finish within 50 s');
}
