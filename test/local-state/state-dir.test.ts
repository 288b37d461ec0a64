import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveStateDir } from '../../lib/local-state/state-dir';
import { typeScriptFiles } from '../support/lib-sources';


describe('resolveStateDir', () => {
  it('is <common dir>/capsule by default', () => {
    expect(resolveStateDir({ env: {}, commonDir: '/r/.git', workTree: '/r' })).toBe('/r/.git/capsule');
  });

  it('takes an absolute CAPSULE_STATE_DIR as it is', () => {
    expect(resolveStateDir({ env: { CAPSULE_STATE_DIR: '/tmp/s' }, commonDir: '/r/.git', workTree: '/r' })).toBe('/tmp/s');
  });

  it('takes a relative CAPSULE_STATE_DIR from the work tree, never from the process cwd', () => {
    expect(resolveStateDir({ env: { CAPSULE_STATE_DIR: 'state' }, commonDir: '/r/.git', workTree: '/r' })).toBe('/r/state');
    expect(resolveStateDir({ env: { CAPSULE_STATE_DIR: 'state' }, commonDir: '/r.git', workTree: null })).toBe('/r.git/state');
  });

  it('is null outside a repository unless the override is absolute', () => {
    expect(resolveStateDir({ env: {}, commonDir: null })).toBeNull();
    expect(resolveStateDir({ env: { CAPSULE_STATE_DIR: 'state' }, commonDir: null })).toBeNull();
    expect(resolveStateDir({ env: { CAPSULE_STATE_DIR: '/s' }, commonDir: null })).toBe('/s');
  });

  it('is the only reader of CAPSULE_STATE_DIR in lib/', () => {
    const readers = typeScriptFiles().filter((p) => /env(?:\.CAPSULE_STATE_DIR|\[['"]CAPSULE_STATE_DIR)|\bSTATE_DIR_ENV\]/.test(readFileSync(p, 'utf8')));
    expect(readers.map((p) => p.split('/lib/')[1])).toEqual(['local-state/state-dir.ts']);
  });
});
