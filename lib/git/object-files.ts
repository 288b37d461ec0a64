import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { readLooseObject } from './loose-object';
import { PackFile, type RawObject } from './pack-file';

/**
 * The object database read straight from its files: loose objects and version 2 packs of the
 * repository's `objects` folder and of its alternates. Synchronous positioned reads of a few
 * small pieces, so reading an object costs no process and no round trip. Missing here means
 * "not in these files": a pack that appeared after the first look is found by `rescan`, and
 * the caller asks git for anything still missing (a promisor remote, a repack in flight).
 */
export class ObjectFiles {
  private packs: PackFile[] | null = null;
  private dirs: string[] | null = null;

  constructor(readonly objectsDir: string) {}

  /**
   * The object, or null when no loose file and no pack holds it. Throws on a damaged file. A
   * pack listed earlier that is gone now (a repack replaced it since the first look) makes it
   * list the packs again once: the objects are in the pack that replaced it.
   */
  read(oid: string): RawObject | null {
    try {
      return this.readListed(oid);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.rescan();
      return this.readListed(oid);
    }
  }

  private readListed(oid: string): RawObject | null {
    for (const pack of this.packList()) {
      const offset = pack.find(oid);
      if (offset !== null) return pack.readAt(offset, (base) => this.read(base));
    }
    for (const dir of this.objectDirs()) {
      const loose = readLooseObject(dir, oid);
      if (loose) return loose;
    }
    return null;
  }

  /** Forgets the pack list, so the next read sees packs written since (after `git gc`, a fetch). */
  rescan(): void {
    for (const pack of this.packs ?? []) pack.close();
    this.packs = null;
  }

  close(): void {
    this.rescan();
  }

  /** The packs of every object folder, newest first (a recent write is most likely in a recent pack). */
  private packList(): PackFile[] {
    if (this.packs) return this.packs;
    const found: Array<{ path: string; mtime: number }> = [];
    for (const dir of this.objectDirs()) {
      let names: string[];
      try {
        names = readdirSync(join(dir, 'pack'));
      } catch {
        continue;
      }
      for (const name of names) {
        if (!/^pack-[0-9a-f]+\.idx$/.test(name)) continue;
        const path = join(dir, 'pack', name);
        found.push({ path, mtime: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 });
      }
    }
    this.packs = found.sort((a, b) => b.mtime - a.mtime).map((f) => new PackFile(f.path));
    return this.packs;
  }

  /** This repository's object folder, then its alternates (as git reads `objects/info/alternates`, nested ones too). */
  private objectDirs(): string[] {
    if (this.dirs) return this.dirs;
    const dirs: string[] = [];
    const visit = (dir: string, depth: number) => {
      if (dirs.includes(dir) || depth > 5) return;
      dirs.push(dir);
      let text = '';
      try {
        text = readFileSync(join(dir, 'info', 'alternates'), 'utf8');
      } catch {
        return;
      }
      for (const line of text.split('\n')) {
        const entry = line.trim();
        if (entry === '' || entry.startsWith('#') || entry.startsWith('"')) continue;
        visit(isAbsolute(entry) ? entry : resolve(dir, entry), depth + 1);
      }
    };
    visit(this.objectsDir, 0);
    this.dirs = dirs;
    return dirs;
  }
}
