import { existsSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearStaleRefLock, STALE_REF_LOCK_MS, waitOutRefLock } from '../../lib/git/stale-ref-lock';
import { openTempStore } from '../store/support/open-temp-store';
import { capsuleText, testId } from '../store/support/temp-repo';

const NOW = new Date('2026-11-29T21:00:00Z');

describe('clearStaleRefLock', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => (t = await openTempStore()));
  afterEach(() => t.done());

  function refLock(ageMs: number): string {
    const path = join(t.dir, '.git', 'refs', 'heads', 'capsules.lock');
    writeFileSync(path, '');
    const at = (Date.now() - ageMs) / 1000;
    utimesSync(path, at, at);
    return path;
  }

  it('lets a write through a ref lock a killed writer left behind', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    const lock = refLock(60_000);
    const result = await t.store.writeCapsule(capsuleText({ id: testId(2) }), { now: NOW });
    expect(result.changed).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('leaves a young lock alone: it may belong to a git that is running', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    const lock = refLock(0);
    expect(await clearStaleRefLock(`fatal: Unable to create '${lock}': File exists.`)).toBe(false);
    expect(existsSync(lock)).toBe(true);
    expect(await clearStaleRefLock(`fatal: Unable to create '${lock}': File exists.`, () => Date.now() + STALE_REF_LOCK_MS + 1)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('does nothing for a lost race that names no lock', async () => {
    expect(await clearStaleRefLock('error: Not updating refs/heads/capsules (new tip does not contain old)')).toBe(false);
  });
});

describe('waitOutRefLock', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => (t = await openTempStore()));
  afterEach(() => t.done());

  function youngLock(): string {
    const path = join(t.dir, '.git', 'refs', 'heads', 'capsules.lock');
    writeFileSync(path, '');
    return path;
  }
  const named = (path: string) => `error: cannot lock ref 'refs/heads/capsules': Unable to create '${path}': File exists.`;

  it('says try again, removing nothing, when the owner releases a young lock', async () => {
    const lock = youngLock();
    let now = Date.now();
    const clock = { now: () => now, sleep: async (ms: number) => { now += ms; unlinkSync(lock); } };
    expect(await waitOutRefLock(named(lock), clock)).toBe(true);
  });

  it('removes a young lock once it has gone stale, and not before', async () => {
    const lock = youngLock();
    let now = Date.now();
    const start = now;
    const seen: boolean[] = [];
    const clock = { now: () => now, sleep: async (ms: number) => { seen.push(existsSync(lock)); now += ms; } };
    expect(await waitOutRefLock(named(lock), clock)).toBe(true);
    expect(existsSync(lock)).toBe(false);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every(Boolean)).toBe(true);
    expect(now - start).toBeGreaterThanOrEqual(STALE_REF_LOCK_MS - 100); // the lock was made just before `start`
  });

  it('says nothing to retry for a failure that names no lock', async () => {
    expect(await waitOutRefLock('fatal: could not read from remote repository')).toBe(false);
  });
});
