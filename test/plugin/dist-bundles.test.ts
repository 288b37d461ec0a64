import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describeIfAvailable } from '../support/needs';

const ROOT = join(__dirname, '..', '..');

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

function isGitCheckout(): boolean {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

// A marketplace install gets no build step, so the bundles it runs are the committed dist/ files.
// This proves the staged (in CI: committed) dist/ equals a fresh build of the sources.
describeIfAvailable('the dist/ check', isGitCheckout() ? null : 'not a git checkout, so there is no committed dist/ to compare')('committed dist/ bundles', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'capsule-build-'));
    execFileSync('node', ['scripts/build.mjs', '--outdir', out], { cwd: ROOT });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('tracks exactly the files a fresh build produces', () => {
    const built = listFiles(out).map((f) => `dist/${relative(out, f)}`).sort();
    const tracked = execFileSync('git', ['ls-files', 'dist'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(tracked).toEqual(built);
  });

  it('stages each bundle byte for byte as a fresh build writes it (run `npm run build` and commit dist/)', () => {
    const stale = listFiles(out).filter((file) => {
      const path = `dist/${relative(out, file)}`;
      const staged = execFileSync('git', ['show', `:${path}`], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, encoding: 'latin1' });
      return staged !== readFileSync(file, 'latin1');
    });
    expect(stale).toEqual([]);
  });

  it('writes every bundle as plain ASCII, so node reads it into a one-byte string', () => {
    const wide = listFiles(out).filter((file) => file.endsWith('.js') && /[^\x00-\x7f]/.test(readFileSync(file, 'latin1')));
    expect(wide.map((f) => relative(out, f))).toEqual([]);
  });
});
