import { join } from 'node:path';
import type { StoreObjectReader } from './cat-file-batch';
import type { CommitSpec, ImportOutcome } from './fast-import';
import { writeLooseObject } from './loose-object';
import { moveRef } from './ref-cas';
import type { RefDirs } from './ref-files';
import { viewTree } from './tree-bytes';
import { editTree } from './tree-edit';

const OID = /^[0-9a-f]{40}$/;

/** Writes a commit without starting git, where it can; else says so and fast-import does it. */
export interface DirectCommitter {
  /** The outcome, or null when this commit must go through git (the caller then runs fast-import). */
  commit(ref: string, spec: CommitSpec): Promise<ImportOutcome | null>;
}

/**
 * The commit fast-import would make, written straight into the object files: the changed
 * blobs, the trees on the changed paths and the commit as loose objects (byte for byte what
 * fast-import writes, so the ids are the same), then the ref moved by compare-and-swap under
 * git's own ref lock (moveRef). Saves the fast-import process and the `unpack-objects` it forks
 * for a small import (~15 ms a write). Only for a commit on top of an existing tip, a ref in the
 * common dir, and a repository whose config leaves permissions and fsync to defaults
 * (`directCommitsAllowed`); anything unexpected falls back to fast-import, which reports it.
 */
export function directCommitter(reader: StoreObjectReader, dirs: RefDirs): DirectCommitter {
  const objectsDir = join(dirs.commonDir, 'objects');
  const readTree = async (oid: string) => {
    const obj = await reader.read(oid);
    if (obj === null || obj.type !== 'tree') throw new Error(`tree ${oid} is not readable`);
    return reader.treeView?.(obj) ?? viewTree(obj.content);
  };
  return {
    async commit(ref, spec) {
      if (spec.from === null || !OID.test(spec.from) || !ref.startsWith('refs/') || /^refs\/(worktree|bisect|rewritten)\//.test(ref)) return null;
      // Objects placed whole (a layout move: `M <mode> <oid> <path>`) are fast-import's job; editTree writes file contents only.
      if (spec.objects !== undefined && spec.objects.size > 0) return null;
      try {
        const parent = await reader.read(spec.from);
        const tree = parent?.type === 'commit' ? /^tree ([0-9a-f]{40})\n/.exec(parent.content.subarray(0, 46).toString('latin1'))?.[1] : undefined;
        if (tree === undefined) return null;
        const write = (type: 'blob' | 'tree' | 'commit', content: Buffer) => writeLooseObject(objectsDir, type, content);
        const root = await editTree(tree, spec, readTree, write);
        const who = `${spec.identity.name} <${spec.identity.email}> ${spec.epochSeconds} +0000`;
        const commit = write('commit', Buffer.from(`tree ${root}\nparent ${spec.from}\nauthor ${who}\ncommitter ${who}\n\n${spec.message}`, 'utf8'));
        const moved = moveRef(dirs, ref, spec.from, commit, { ...spec.identity, epochSeconds: spec.epochSeconds, message: spec.message });
        if (moved.ok === 'ask-git') return null;
        return moved.ok ? { ok: true, commit } : { ok: false, reason: moved.reason };
      } catch {
        return null; // an unwritable object folder, a damaged tree: fast-import meets it again and says what it is
      }
    },
  };
}

/**
 * True when the config leaves what direct writes cannot honour to git's defaults: no shared
 * repository permissions (`core.sharedRepository`) and no fsync wishes (`core.fsync`,
 * `core.fsyncObjectFiles`). Keys as lib/git/config-sources.ts `capsuleValues` lowers them.
 */
export function directCommitsAllowed(values: Readonly<Record<string, string>>): boolean {
  const shared = values['core.sharedrepository'];
  return (shared === undefined || /^(false|umask|no|off|0)$/i.test(shared)) && values['core.fsync'] === undefined && values['core.fsyncobjectfiles'] === undefined;
}
