import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './support/temp-dirs';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { laneOf, lanes } = require('./support/lanes') as { laneOf: (file: string) => string; lanes: () => Record<string, string[]> };

describe('the test lanes', () => {
  it('puts a file whose imports reach child_process, through any depth, in the git lane, and a pure one in unit', () => {
    const dir = tempDir('capsule-lanes-');
    mkdirSync(join(dir, 'support'));
    // The module name is put together so that this file's own text does not import it.
    const cp = ['child', 'process'].join('_');
    writeFileSync(join(dir, 'support', 'spawns.ts'), `import { spawnSync } from 'node:${cp}';\nexport const run = spawnSync;\n`);
    writeFileSync(join(dir, 'support', 'middle.ts'), "export { run } from './spawns';\n");
    writeFileSync(join(dir, 'support', 'lazy.ts'), `export const cp = () => require('${cp}');\n`);
    writeFileSync(join(dir, 'support', 'pure.ts'), "export const twice = (n: number) => 2 * n; // mentions child_process only in a comment\n");
    writeFileSync(join(dir, 'deep.test.ts'), "import { run } from './support/middle';\n");
    writeFileSync(join(dir, 'lazy.test.ts'), "import { cp } from './support/lazy';\n");
    writeFileSync(join(dir, 'pure.test.ts'), "import { twice } from './support/pure';\n");
    expect([laneOf(join(dir, 'deep.test.ts')), laneOf(join(dir, 'lazy.test.ts')), laneOf(join(dir, 'pure.test.ts'))]).toEqual(['git', 'git', 'unit']);
  });

  it('gives every test file of the repository exactly one lane, the end-to-end and hardening folders theirs', () => {
    const all = lanes();
    const files = Object.values(all).flat();
    expect(new Set(files).size).toBe(files.length);
    expect(all.e2e!.every((f) => /\/test\/(e2e|harness)\//.test(f))).toBe(true);
    expect(all.hardening!.every((f) => f.includes('/test/hardening/'))).toBe(true);
    expect(all.unit!.length).toBeGreaterThan(50);
    expect(all.unit).toContain(__filename);
  });
});
