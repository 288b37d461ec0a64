import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gcWanted, scheduleGcAuto } from '../../lib/git/housekeeping';
import type { GitRunner } from '../../lib/git/git-runner';

/** A repository whose gc thresholds are small enough to cross in a test. */
function makeRepo(config: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-gc-'));
  const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(dir, '.gitconfig') };
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: dir, env, input, encoding: 'utf8' }).trim();
  git(['init', '-q']);
  git(['config', 'gc.autoDetach', 'false']); // the test reads what gc did right after it
  for (const [k, v] of Object.entries(config)) git(['config', k, v]);
  const objects = join(dir, '.git', 'objects');
  /** Adds loose blobs (and commits, so gc keeps them) until `count` of them sit in objects/17, the folder git samples. */
  const looseIn17 = (count: number) => {
    for (let i = 0; readdir(join(objects, '17')).length < count; i += 1) {
      const content = blobIn17(`${dir} ${i}`);
      writeFileSync(join(dir, `f${i}`), content);
      git(['add', `f${i}`]);
    }
    git(['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'maintenance.auto=false', 'commit', '-qm', 'blobs']); // no gc of its own
  };
  const loose = () => Number(/^count: (\d+)$/m.exec(git(['count-objects', '-v']))![1]);
  return { dir, git, objects, looseIn17, loose, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A text whose blob id starts with 17 (one try in 256). */
function blobIn17(seed: string): string {
  for (let n = 0; ; n += 1) {
    const text = `${seed} ${n}\n`;
    if (createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex').startsWith('17')) return text;
  }
}

const readdir = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

describe('gcWanted', () => {
  it('agrees with git gc --auto on loose objects: it acts once objects/17 holds more than gc.auto / 256', () => {
    const repo = makeRepo({ 'gc.auto': '256' }); // threshold: more than 1 in objects/17
    try {
      repo.looseIn17(1);
      expect(gcWanted(repo.objects, { 'gc.auto': '256' })).toBe(false);
      const before = repo.loose();
      repo.git(['gc', '--auto', '--quiet']);
      expect(repo.loose()).toBe(before);
      repo.looseIn17(2);
      expect(gcWanted(repo.objects, { 'gc.auto': '256' })).toBe(true);
      repo.git(['gc', '--auto', '--quiet']);
      expect(repo.loose()).toBeLessThan(before);
    } finally {
      repo.cleanup();
    }
  });

  it('wants gc past gc.autoPackLimit packs, not counting kept ones', () => {
    const repo = makeRepo({});
    try {
      const values = { 'gc.autopacklimit': '2' };
      for (let i = 0; i < 3; i += 1) {
        repo.git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', `pack ${i}`]);
        repo.git(['repack', '-d', '-q']);
      }
      expect(gcWanted(repo.objects, values)).toBe(true);
      const pack = readdir(join(repo.objects, 'pack')).find((n) => n.endsWith('.pack'))!;
      writeFileSync(join(repo.objects, 'pack', pack.replace(/\.pack$/, '.keep')), '');
      expect(gcWanted(repo.objects, values)).toBe(false);
    } finally {
      repo.cleanup();
    }
  });

  it('never wants gc when gc.auto is 0', () => {
    const repo = makeRepo({});
    try {
      repo.looseIn17(3);
      expect(gcWanted(repo.objects, { 'gc.auto': '0' })).toBe(false);
      expect(gcWanted(repo.objects, { 'gc.auto': '1k' })).toBe(false); // 1024 / 256 = 4: three is not more
    } finally {
      repo.cleanup();
    }
  });
});

describe('scheduleGcAuto', () => {
  const runner = () => {
    const started: string[][] = [];
    const git = { cwd: '/', env: {}, run: async () => ({ stdout: '', stderr: '', exitCode: 0 }), background: (args: readonly string[]) => void started.push([...args]) } as GitRunner;
    return { git, started };
  };

  it('starts gc only when the check says git would act', () => {
    const { git, started } = runner();
    expect(scheduleGcAuto(git, { wanted: () => false })).toBe(false);
    expect(scheduleGcAuto(git, { wanted: () => true })).toBe(true);
    expect(started).toEqual([['gc', '--auto', '--quiet']]);
  });

  it('samples one write in eight without a check', () => {
    const { git, started } = runner();
    expect(scheduleGcAuto(git, { random: () => 0.5 })).toBe(false);
    expect(scheduleGcAuto(git, { random: () => 0.1 })).toBe(true);
    expect(started).toHaveLength(1);
  });
});
