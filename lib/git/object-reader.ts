import { join } from 'node:path';
import { CatFileBatch, DEFAULT_MAX_OBJECT_BYTES, type GitObject, type ReadOptions, type StoreObjectReader } from './cat-file-batch';
import type { GitRunner } from './git-runner';
import { findTreeEntry, viewTree, type TreeView } from './tree-bytes';
import { ObjectFiles } from './object-files';
import type { RawObject } from './pack-file';
import { readRefFile, type RefDirs } from './ref-files';

const OID = /^[0-9a-f]{40}$/;

/**
 * Reads objects by the names the store uses (`<oid>`, `HEAD`, `refs/…`, `<rev>:<path>`,
 * `<rev>^{tree}`) straight from the git files: refs from their loose files and packed-refs,
 * objects from loose files and packs (ObjectFiles). Whatever the files cannot answer for sure —
 * another name syntax, a ref file git would have to judge, an object not found, a damaged
 * file — goes to a `git cat-file --batch` started on first need, so the answers are git's.
 * Only for repositories whose refs are files and whose objects are SHA-1 without replace refs
 * (see `filesReadable`); the store decides that at open.
 */
export class FileObjectReader implements StoreObjectReader {
  private readonly files: ObjectFiles;
  private batch: CatFileBatch | null = null;
  private readonly byOid = new Map<string, GitObject>();
  private readonly views = new Map<string, TreeView>();

  constructor(private readonly dirs: RefDirs, private readonly git: GitRunner) {
    this.files = new ObjectFiles(join(dirs.commonDir, 'objects'));
  }

  async read(name: string, opts: ReadOptions = {}): Promise<GitObject | null> {
    let answer: GitObject | null | undefined;
    try {
      answer = this.resolve(name);
    } catch {
      answer = undefined; // a file changed under us or is damaged: git's own reading decides
    }
    if (answer === undefined) return this.gitBatch().read(name, opts);
    // The files are inflated whole; what is handed on is bounded as cat-file's reading bounds it.
    const max = opts.maxBytes ?? DEFAULT_MAX_OBJECT_BYTES;
    if (answer === null || answer.content.length <= max) return answer;
    return { ...answer, size: answer.content.length, content: answer.content.subarray(0, max), truncated: true };
  }

  /** Reads a blob's text (its first `maxBytes` when over), or null when missing. */
  async readText(name: string, opts: ReadOptions = {}): Promise<string | null> {
    const obj = await this.read(name, opts);
    return obj === null ? null : obj.content.toString('utf8');
  }

  /** Closes the pack files and the cat-file, if one was started. */
  async close(): Promise<void> {
    this.files.close();
    const batch = this.batch;
    this.batch = null;
    await batch?.close();
  }

  /** The object, null when it certainly does not exist, undefined when git must be asked. */
  private resolve(name: string): GitObject | null | undefined {
    const colon = name.indexOf(':');
    const rev = colon === -1 ? name : name.slice(0, colon);
    const peelTree = rev.endsWith('^{tree}');
    const start = this.revision(peelTree ? rev.slice(0, -'^{tree}'.length) : rev);
    if (!start || (colon === -1 && !peelTree)) return start;
    if (start.type !== 'commit' && start.type !== 'tree') return start.type === 'blob' ? null : undefined; // a tag: git peels it
    let current = start.type === 'commit' ? this.object(treeOf(start)) : start;
    if (current === undefined || colon === -1) return current;
    for (const part of name.slice(colon + 1).split('/')) {
      if (part === '') continue;
      if (current.type !== 'tree') return null;
      const entry = findTreeEntry(this.treeView(current), part);
      if (!entry) return null;
      current = this.object(entry.oid);
      if (current === undefined) return undefined;
    }
    return current;
  }

  /** The object a revision names: an id, HEAD, or a full ref name. */
  private revision(rev: string): GitObject | null | undefined {
    if (OID.test(rev)) return this.object(rev);
    if (rev !== 'HEAD' && !rev.startsWith('refs/')) return undefined;
    const ref = readRefFile(this.dirs, rev);
    if (ref === null) return undefined;
    return 'absent' in ref ? null : this.object(ref.oid);
  }

  /** An object by id; undefined when the files do not hold it (git is asked, it may know better). */
  private object(oid: string): GitObject | undefined {
    if (!OID.test(oid)) return undefined;
    const known = this.byOid.get(oid);
    if (known) return known;
    let raw: RawObject | null = this.files.read(oid);
    if (raw === null) {
      this.files.rescan();
      raw = this.files.read(oid);
    }
    if (raw === null) return undefined;
    const obj = { oid, type: raw.type, content: raw.content };
    this.byOid.set(oid, obj);
    return obj;
  }

  /** A tree's entries indexed once per tree id (a month folder is walked for every capsule read). */
  treeView(tree: GitObject): TreeView {
    let view = this.views.get(tree.oid);
    if (!view) this.views.set(tree.oid, (view = viewTree(tree.content)));
    return view;
  }

  private gitBatch(): CatFileBatch {
    this.batch ??= new CatFileBatch(this.git);
    return this.batch;
  }
}

/** The tree id on a commit's first line. */
function treeOf(commit: GitObject): string {
  const line = commit.content.subarray(0, 46).toString('latin1');
  return /^tree ([0-9a-f]{40})\n/.exec(line)?.[1] ?? '';
}
