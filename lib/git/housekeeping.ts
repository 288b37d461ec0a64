import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRunner } from './git-runner';

/**
 * fast-import, plumbing and direct writes never pack, and lost races leave unreachable objects,
 * so writes start `git gc --auto` (detached, never waited for). Where the object folder is
 * known, `wanted` asks git's own question first (gcWanted) and the process starts only when gc
 * would act; otherwise one write in `every` starts it (gc only acts past ~6,700 loose objects,
 * hundreds of writes, so the sample keeps that bound while most writes skip a process start).
 */
export function scheduleGcAuto(git: GitRunner, opts: { every?: number; random?: () => number; wanted?: () => boolean } = {}): boolean {
  if (opts.wanted ? !opts.wanted() : (opts.random ?? Math.random)() * (opts.every ?? 8) >= 1) return false;
  git.background?.(['gc', '--auto', '--quiet']);
  return true;
}

/**
 * Whether `git gc --auto` would do anything, judged as git 2.39 judges it without starting it:
 * more than `gc.autoPackLimit` (50) local packs without a `.keep`, or more loose objects in
 * `objects/17` than `gc.auto` (6,700) / 256 — git's own estimate from one fan-out folder.
 * `gc.auto` 0 or less turns it off. Values as lib/git/config-sources.ts lowers the keys.
 */
export function gcWanted(objectsDir: string, values: Readonly<Record<string, string>>): boolean {
  const auto = configInt(values['gc.auto'], 6700);
  if (auto <= 0) return false;
  const packLimit = configInt(values['gc.autopacklimit'], 50);
  if (packLimit > 0) {
    const names = list(join(objectsDir, 'pack'));
    const packs = names.filter((n) => n.endsWith('.pack') && !names.includes(n.replace(/\.pack$/, '.keep')));
    if (packs.length > packLimit) return true;
  }
  const threshold = Math.ceil(auto / 256);
  return list(join(objectsDir, '17')).filter((n) => /^[0-9a-f]{38}$/.test(n)).length > threshold;
}

/** A git config integer (`12`, `8k`, `1m`); `fallback` when unset or unreadable. */
function configInt(value: string | undefined, fallback: number): number {
  const m = /^\s*(-?\d+)\s*([kmg]?)\s*$/i.exec(value ?? '');
  if (!m) return fallback;
  return Number(m[1]) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as Record<string, number>)[m[2]!.toLowerCase()]!;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
