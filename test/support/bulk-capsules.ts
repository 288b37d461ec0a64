import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { utcSortKey } from '../../lib/capsule/created-at';
import { readLocalIdentity } from '../../lib/local-state/local-identity';
import { ensureSealKey } from '../../lib/local-state/seal-key';
import { sealCapsuleText } from '../../lib/capsule/seal';
import { randomBytes } from 'node:crypto';
import { summarizeCapsule } from '../../lib/store/capsule-summary';
import { FORMAT_PATH, FORMAT_TEXT, capsuleDir } from '../../lib/store/memory-format';
import { buildIndexFiles, INDEX_DIR } from '../../lib/store/selection-index';
import type { IndexEntry, StatusEvent } from '../../lib/store/types';
import { ulid } from './capsule-doc';

/** One capsule of a bulk fixture: its frontmatter overrides and the status events to add. */
export interface BulkCapsule {
  fields: Record<string, unknown>;
  events?: Array<'resumed' | 'resolved' | 'paused' | 'abandoned'>;
  /** The document's text as it is (a hostile one), instead of one made from `fields`; the index still says `fields`. */
  text?: string;
}

const DEFAULTS = { objective: 'Bulk fixture capsule', waiting_on: 'nothing', next_valid_action: 'run the tests', status: 'active' };

/**
 * Who and where the repository's own store writes (the fields it stamps, plus the branch HEAD is
 * on): what a capsule written in this worktree carries, so a fixture's capsules are this
 * author's, on this machine, in this worktree and branch.
 */
export function localWriter(repoDir: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const run = (args: string[]) => execFileSync('git', args, { cwd: repoDir, env, encoding: 'utf8' }).trim();
  const { gitDir, commonDir, stateDir } = localDirs(repoDir, env);
  const local = readLocalIdentity(stateDir, { gitDir, commonDir }, new Date());
  return { repo_branch: run(['symbolic-ref', '--short', 'HEAD']), author: run(['config', 'user.email']), ...local };
}

function localDirs(repoDir: string, env: NodeJS.ProcessEnv): { gitDir: string; commonDir: string; stateDir: string } {
  const run = (args: string[]) => execFileSync('git', args, { cwd: repoDir, env, encoding: 'utf8' }).trim();
  const [gitDir, commonDir] = run(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir']).split('\n') as [string, string];
  return { gitDir, commonDir, stateDir: env.CAPSULE_STATE_DIR ? resolve(repoDir, env.CAPSULE_STATE_DIR) : join(commonDir, 'capsule') };
}

/** The repository's own seal key (made if missing), as its store would seal what it writes. */
export function localSealKey(repoDir: string, env: NodeJS.ProcessEnv): Uint8Array {
  return ensureSealKey(localDirs(repoDir, env).stateDir, (n) => new Uint8Array(randomBytes(n))).key;
}

/**
 * Writes many capsules onto an existing memory branch in one `git fast-import`, laid out as
 * the store lays them out, with the derived index built by the store's own index functions
 * (one store write each, or a rebuild reading every blob back, would take minutes at 10,000).
 * Capsules may be invalid on purpose: a branch that arrived by sync can hold anything. Each
 * carries `writer` (default: this repository's own, `localWriter`; null: no identity, as an
 * earlier version wrote them) under its own fields; a document made from fields that name this
 * clone's machine is sealed with its key, as the store seals what it writes.
 */
export function importCapsules(repoDir: string, env: NodeJS.ProcessEnv, ref: string, capsules: readonly BulkCapsule[], writer: Record<string, string> | null = localWriter(repoDir, env)): void {
  const parts: string[] = [];
  const entries: IndexEntry[] = [];
  const here = writer === null ? null : localWriter(repoDir, env).machine;
  let key: Uint8Array | null = null;
  const sealed = (text: string, machine: unknown) => (machine !== undefined && machine === here ? sealCapsuleText(text, (key ??= localSealKey(repoDir, env)))! : text);
  const data = (text: string) => parts.push(`data ${Buffer.byteLength(text)}\n${text}\n`);
  parts.push(`commit ${ref}\ncommitter Fixture <fixture@example.com> 1796000000 +0000\n`);
  data('fixture: bulk capsules\n');
  parts.push(`from ${ref}^0\nD ${INDEX_DIR}\nM 100644 inline ${FORMAT_PATH}\n`);
  data(FORMAT_TEXT);
  capsules.forEach((c, i) => {
    const fm: Record<string, unknown> = { id: ulid(i), created_at: '2026-11-01T00:00:00Z', ...DEFAULTS, ...writer, ...c.fields };
    for (const key of Object.keys(fm)) if (fm[key] === undefined) delete fm[key];
    const id = String(fm.id);
    const dir = capsuleDir(id);
    parts.push(`M 100644 inline ${dir}/capsule.md\n`);
    // JSON strings are valid YAML double-quoted scalars: a fast, exact frontmatter.
    data(c.text ?? sealed(`---\n${Object.entries(fm).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n')}\n---\n`, fm.machine));
    const events: StatusEvent[] = (c.events ?? []).map((status, k) => {
      const name = `${utcSortKey(Date.UTC(2026, 10, 2, 0, 0, k))}-fixture-${status}`;
      parts.push(`M 100644 inline ${dir}/status/${name}\n`);
      data(`status: ${status}\nwriter: fixture\n`);
      return { stamp: name.split('-')[0]!, writer: 'fixture', status, path: `${dir}/status/${name}` };
    });
    entries.push(summarizeCapsule(fm, { id, dir }, events));
  });
  for (const [path, text] of buildIndexFiles(entries)) {
    parts.push(`M 100644 inline ${path}\n`);
    data(text);
  }
  parts.push('done\n');
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: repoDir, env, input: parts.join(''), maxBuffer: 1 << 28 });
}
