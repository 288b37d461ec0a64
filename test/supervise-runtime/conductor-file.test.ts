import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCoordination, COORDINATION_ENV } from '../../lib/resume-runtime/coordination-guard';
import { CONDUCTOR_NAME, ConductorFile } from '../../lib/supervise-runtime/conductor-file';
import type { ConductorPhase } from '../../lib/supervise/supervisor-events';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-conductor-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const data = { reset: 1, session: 's1', capsuleId: null, at: '2026-12-01T10:00:00.000Z' };
const own = () => ConductorFile.open({ env: {}, cwd: dir, runtimeDir: join(dir, 'runtime'), pid: 4242 })!;
const declared = (path: string, pid = 4242) => ConductorFile.open({ env: { [COORDINATION_ENV]: path }, cwd: dir, runtimeDir: join(dir, 'runtime'), pid })!;

describe('ConductorFile', () => {
  // The guard the client's SessionStart hook runs: what the supervisor writes must defer it
  // while the capsule is awaited, and let the resume of its own /clear run.
  it.each([
    ['capsule-pending', true],
    ['complete', false],
    ['aborted', false],
  ] as Array<[ConductorPhase, boolean]>)('writes %s, which the resume guard reads as defer=%s', async (phase, defer) => {
    const file = own();
    file.write(phase, data);
    const decision = await checkCoordination(file.childEnv({}), dir);
    expect(decision.defer).toBe(defer);
    if (!decision.defer) expect(decision.notice).toBeNull();
  });

  it('writes its own file privately (0600, in a 0700 folder) and never through a link planted there', () => {
    const file = own();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'keep\n');
    mkdirSync(join(dir, 'runtime', 'supervise'), { recursive: true });
    symlinkSync(victim, file.path);
    file.write('complete', data);
    expect(readFileSync(victim, 'utf8')).toBe('keep\n');
    expect(lstatSync(file.path).isFile()).toBe(true);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toMatchObject({ phase: 'complete', conductor: CONDUCTOR_NAME });
  });

  it('uses its own file under the runtime dir when none is declared, and removes it at the end', () => {
    const file = own();
    expect(file).toMatchObject({ path: join(dir, 'runtime', 'supervise', '4242.json'), declared: false });
    file.write('complete', data);
    expect(existsSync(file.path)).toBe(true);
    file.close();
    expect(existsSync(file.path)).toBe(false);
  });

  it('has no file outside a repository when none is declared', () => {
    expect(ConductorFile.open({ env: {}, cwd: dir, runtimeDir: null, pid: 1 })).toBeNull();
  });

  it('keeps the fields other conductors put into a declared file, and leaves it in place', () => {
    const path = join(dir, 'shared.json');
    writeFileSync(path, JSON.stringify({ phase: 'done', team: 'blue' }));
    const file = declared(path);
    file.write('capsule-pending', data);
    file.close();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ phase: 'capsule-pending', team: 'blue', conductor: CONDUCTOR_NAME, pid: 4242, reset: 1, session: 's1', capsule_id: null, at: data.at });
  });

  describe('hold', () => {
    const holdWith = (state: unknown) => {
      const path = join(dir, 'shared.json');
      writeFileSync(path, JSON.stringify(state));
      return declared(path).hold();
    };

    it("is another conductor's live phase", () => {
      expect(holdWith({ phase: 'draining', conductor: 'fleet' })).toBe('draining');
    });

    it.each([
      ['a terminal phase', { phase: 'done' }],
      ['no phase', { team: 'blue' }],
      ['its own phase', { phase: 'capsule-pending', conductor: CONDUCTOR_NAME, pid: 4242 }],
    ])('is null for %s', (_name, state) => {
      expect(holdWith(state)).toBeNull();
    });

    it('is null for the phase of a supervisor whose process is gone', () => {
      const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      expect(holdWith({ phase: 'capsule-pending', conductor: CONDUCTOR_NAME, pid: Number(gone.stdout) })).toBeNull();
    });

    it('is the phase of another supervisor that still runs', () => {
      expect(holdWith({ phase: 'capsule-pending', conductor: CONDUCTOR_NAME, pid: process.pid })).toBe('capsule-pending');
    });

    it('is never read from its own file', () => {
      const file = own();
      file.write('capsule-pending', data);
      expect(file.hold()).toBeNull();
    });
  });
});
