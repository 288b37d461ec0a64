// Adds phase marks along the Stop hook's path to a scratch checkout, for bench/stop-ab.mjs:
//
//   git worktree add /tmp/marked <commit> && node bench/lib/add-stop-marks.mjs /tmp/marked
//   (cd /tmp/marked && ln -s "$OLDPWD/node_modules" . && node scripts/build.mjs --outdir /tmp/marked-dist)
//
// Never run it on a checkout you commit from. Each mark is `globalThis.__m?.('<name>')` at an
// anchor line; the launcher records `performance.now()` and `process.cpuUsage()` per mark when
// MARKS_OUT is set and appends one line per run at exit. An anchor that is no longer in the
// source is reported and skipped (the code moved: add the mark again where it went).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const checkout = process.argv[2];
if (!checkout) {
  console.error('usage: node bench/lib/add-stop-marks.mjs <scratch checkout>');
  process.exit(2);
}
const M = (name) => `(globalThis as any).__m?.(${name});`;
const LAUNCHER = `  if (process.env.MARKS_OUT) { const c0 = process.cpuUsage(); const cpu = () => { const u = process.cpuUsage(c0); return ((u.user + u.system) / 1000).toFixed(1); }; const ms: string[] = [\`start \${performance.now().toFixed(1)} 0\`]; (globalThis as any).__m = (n: string) => ms.push(\`\${n} \${performance.now().toFixed(1)} \${cpu()}\`); process.on('exit', () => { ms.push(\`exit \${performance.now().toFixed(1)} \${cpu()}\`); require('fs').appendFileSync(process.env.MARKS_OUT!, ms.join(' | ') + '\\n'); }); }\n`;

/** [file, anchor, text, where]: `before` puts the text on the line before the anchor, `after` right after it. */
const MARKS = [
  ['lib/hooks/launcher.ts', 'function launch(): void {\n', LAUNCHER, 'after'],
  ['lib/launch/code-cache.ts', '  const module = { exports: {} as unknown, filename: bundle };', `${M("'compiled'")}\n`, 'before'],
  ['lib/hooks/hook-process.ts', '  // Last line of defence: something escaped the runner.', `  ${M("'toplevel-done'")}\n`, 'before'],
  ['lib/hooks/stop.ts', '      if (!input.session_id) return;', `\n      ${M("'handle'")}`, 'after'],
  ['lib/hooks/autosave.ts', '  const parsed = delta?.streamed', `${M("'delta-read'")}\n  `, 'before'],
  ['lib/hooks/autosave.ts', '  const submittedPrompts =', `${M("'records-redacted'")}\n  `, 'before'],
  ['lib/hooks/autosave.ts', '  const events = [...extracted.events', `${M("'extracted'")}\n  `, 'before'],
  ['lib/git/cat-file-batch.ts', '    trackGitChild(child);', `\n    ${M("'cat-file-spawned'")}`, 'after'],
  ['lib/hooks/autosave.ts', '  let doc = merged.doc;', `${M("'merged'")}\n  `, 'before'],
  ['lib/store/write-capsule.ts', '  // Every path to the memory branch', `${M("'write-start'")}\n  `, 'before'],
  ['lib/store/write-capsule.ts', '  const validated = validateCapsuleText(redacted);', `${M("'doc-redacted'")}\n  `, 'before'],
  ['lib/store/write-capsule.ts', '  if (problems.length > 0) throw invalid(problems);', `\n  ${M("'validated'")}`, 'after'],
  ['lib/store/write-capsule.ts', '    const tip = await parts.tree.tip();', `\n    ${M("'tip'")}`, 'after'],
  ['lib/store/write-capsule.ts', '    const tombstone = stones.find', `${M("'reads'")}\n    `, 'before'],
  ['lib/store/write-capsule.ts', '    const op = opts.op ??', `${M("'index-planned'")}\n    `, 'before'],
  ['lib/git/git-runner.ts', '    running.add(child);', `\n    ${M("'spawned-' + args.find((a) => !a.includes('=') && a !== '-c')")}`, 'after'],
  ['lib/git/git-runner.ts', "    child.on('close', (code, signal) => {", `    child.on('exit', () => ${M("'git-exited'").slice(0, -1)});\n`, 'before'],
  ['lib/hooks/autosave.ts', '  const id = String(doc.frontmatter.id);', `${M("'committed'")}\n  `, 'before'],
  ['lib/hooks/autosave.ts', '  settle();\n  return { id, doc', `${M("'state-written'")}\n  `, 'before'],
  ['lib/hooks/stop.ts', '      return planBudget().apply();', `${M("'folded'")}\n      `, 'before'],
];

let missing = 0;
const sources = new Map();
for (const [file, anchor, text, where] of MARKS) {
  const path = join(checkout, file);
  const source = sources.get(path) ?? readFileSync(path, 'utf8');
  if (!source.includes(anchor)) {
    console.error(`not marked: ${file} no longer has ${JSON.stringify(anchor.trim().slice(0, 60))}`);
    missing += 1;
    continue;
  }
  sources.set(path, source.replace(anchor, where === 'before' ? text + anchor : anchor + text));
}
for (const [path, source] of sources) writeFileSync(path, source);
console.log(`${MARKS.length - missing} of ${MARKS.length} marks added to ${checkout}`);
