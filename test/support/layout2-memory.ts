import { execFileSync } from 'node:child_process';
import { FORMAT_TEXT, FORMAT_TEXT_V2 } from '../../lib/store/memory-format';

/** A layout-3 path as the previous git-capsule (layout 2) wrote it: one folder per year, month and day. */
export function layout2Path(path: string): string {
  return path
    .replace(/^(capsules|retired)\/(\d{4,5})-(\d\d)-(\d\d)\//, '$1/$2/$3/$4/')
    .replace(/^index\/([a-z]+)\/(\d{4,5})-(\d\d)-(\d\d)$/, 'index/$1/$2/$3/$4');
}

/**
 * Rewrites every commit of `ref` after the shared root into layout 2, as the previous
 * git-capsule wrote it (folders `<yyyy>/<mm>/<dd>`, index counts of format 2, FORMAT of version 2),
 * keeping each commit's author, committer, message and parents. Plain git only (fast-import), so
 * a migration test does not trust the code it tests. Returns the new tip.
 */
export function rewriteAsLayout2(dir: string, env: NodeJS.ProcessEnv, ref: string): string {
  const run = (args: string[], input?: string) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', input, maxBuffer: 1 << 28 });
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const mapped = new Map<string, string>();
  const parts: string[] = [];
  let mark = 0;
  for (const line of run(['rev-list', '--reverse', '--topo-order', '--parents', ref]).trim().split('\n')) {
    const [commit, ...parents] = line.split(' ') as [string, ...string[]];
    if (parents.length === 0) {
      mapped.set(commit, commit);
      continue;
    }
    const raw = run(['cat-file', 'commit', commit]);
    const head = raw.slice(0, raw.indexOf('\n\n'));
    const message = raw.slice(raw.indexOf('\n\n') + 2);
    const who = (field: string) => new RegExp(`^${field} (.*)$`, 'm').exec(head)![1];
    mark += 1;
    parts.push(`commit ${ref}\nmark :${mark}\nauthor ${who('author')}\ncommitter ${who('committer')}\n${data(message)}`);
    parts.push(`from ${mapped.get(parents[0]!)}\n`, ...parents.slice(1).map((p) => `merge ${mapped.get(p)}\n`), 'deleteall\n');
    // Layout 2 kept one index blob per status and day: the author shards of a day are joined.
    const dayShards = new Map<string, string[]>();
    for (const entry of run(['ls-tree', '-r', '-z', commit]).split('\0').filter(Boolean)) {
      const [meta, path] = entry.split('\t') as [string, string];
      const [mode, , oid] = meta.split(' ') as [string, string, string];
      const author = /^(index\/[a-z]+\/\d{4,5}-\d\d-\d\d)\/[^/]+$/.exec(path);
      if (path === 'FORMAT' || path === 'index/counts.json') {
        const text = run(['cat-file', 'blob', oid]);
        parts.push(`M 100644 inline ${path}\n${data(path === 'FORMAT' ? (text === FORMAT_TEXT ? FORMAT_TEXT_V2 : text) : text.replace(/"format":[34]/, '"format":2'))}`);
      } else if (author) {
        dayShards.set(author[1]!, [...(dayShards.get(author[1]!) ?? []), ...run(['cat-file', 'blob', oid]).split('\n').filter(Boolean)]);
      } else {
        parts.push(`M ${mode} ${oid} ${layout2Path(path)}\n`);
      }
    }
    for (const [day, lines] of dayShards) parts.push(`M 100644 inline ${layout2Path(day)}\n${data(`${lines.sort().join('\n')}\n`)}`);
    parts.push('\n');
    mapped.set(commit, `:${mark}`);
  }
  if (mark === 0) return run(['rev-parse', ref]).trim();
  run(['fast-import', '--quiet', '--force', '--done'], `${parts.join('')}done\n`);
  return run(['rev-parse', ref]).trim();
}
