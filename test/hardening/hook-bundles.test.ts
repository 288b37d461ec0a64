import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The launcher (lib/hooks/launcher.ts) runs each hook bundle through vm.Script to keep V8's code
// cache, and such a script has no dynamic-import callback: an `import()` left in a bundle throws
// "A dynamic import callback was not specified" the first time that path runs (for example the
// write lock, taken only when two writers race), and the hook fails open with its work lost.
const IMPL = join(__dirname, '..', '..', 'dist', 'hooks', 'impl');

describe('the hook bundles run by the launcher', () => {
  const bundles = existsSync(IMPL) ? readdirSync(IMPL).filter((f) => f.endsWith('.js')) : [];

  it('exist (npm test builds them first)', () => {
    expect(bundles.length).toBeGreaterThan(0);
  });

  it.each(bundles)('%s holds no dynamic import()', (file) => {
    const source = readFileSync(join(IMPL, file), 'utf8');
    expect(source.match(/\bimport\(\s*["'`][^"'`]*["'`]\s*\)/g) ?? []).toEqual([]);
  });
});
