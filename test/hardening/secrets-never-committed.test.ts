import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCapsule } from '../../lib/capsule/render';
import { emptySections } from '../../lib/capsule/sections';
import { SECTION_KEYS } from '../../lib/capsule/types';
import { generateSecrets, secretCore, type PlantedSecret } from '../redact/secret-corpus';
import { openTempStore } from '../store/support/open-temp-store';
import { git, testId } from '../store/support/temp-repo';
import { runCli } from '../support/run-cli';

const NOW = new Date('2026-11-29T21:00:00Z');

/** Every object reachable from the memory branch, printed whole (commits, trees, blobs). */
function everyObject(dir: string, env: NodeJS.ProcessEnv): string {
  const ids = git(dir, ['rev-list', '--objects', 'capsules'], env)
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((id): id is string => id !== undefined && id.length > 0);
  const batch = execFileSync('git', ['cat-file', '--batch'], { cwd: dir, env, input: ids.join('\n') + '\n', maxBuffer: 256 * 1024 * 1024 });
  return batch.toString('latin1') + batch.toString('utf8');
}

/** A capsule with the secrets spread over its fields, sections, tags and notes. */
function capsuleWith(n: number, secrets: PlantedSecret[]): string {
  const at = (i: number) => (secrets[i % secrets.length] as PlantedSecret).context;
  const sections = emptySections();
  SECTION_KEYS.forEach((key, i) => (sections[key] = [`step ${i}: ${at(n + i + 3)}`, at(n + i + 10)]));
  return renderCapsule({
    frontmatter: {
      id: testId(n),
      objective: at(n),
      waiting_on: `the deploy; ${at(n + 1)}`,
      next_valid_action: at(n + 2),
      status: 'active',
      trigger: 'autosave',
      created_at: '2026-11-29T20:00:00Z',
      tags: [(secrets.find((s) => s.kind === 'github-token') as PlantedSecret).value, 'ok'], // tags are at most 64 characters
      success_criteria: at(n + 21),
    },
    sections,
    notes: secrets.slice(0, 12).map((s) => s.context).join('\n'),
  });
}

describe('secrets planted in capsules never reach the memory branch', () => {
  it('leaves none in any object the branch reaches, nor in git log -p', async () => {
    const secrets = generateSecrets(8128, 2);
    const t = await openTempStore();
    try {
      // Writes and autosave rewrites through the store, as the hooks do.
      for (let n = 0; n < 12; n++) {
        await t.store.writeCapsule(capsuleWith(n * 7, secrets), { now: NOW, op: 'autosave' });
        await t.store.writeCapsule(capsuleWith(n * 7 + 3, secrets).replace(testId(n * 7 + 3), testId(n * 7)), { now: NOW, op: 'autosave', replace: true });
      }
      await t.store.setStatus(testId(0), 'resolved', { writer: 'session-a', now: NOW });
      // A capsule a user wrote by hand, through the CLI.
      const file = join(t.dir, 'handoff.md');
      writeFileSync(file, capsuleWith(500, secrets));
      const cli = await runCli(['write', file], { cwd: t.dir, env: t.env, now: NOW });
      expect(cli.code).toBe(0);

      const objects = everyObject(t.dir, t.env);
      const log = git(t.dir, ['log', '-p', '--format=%H%n%B', 'capsules'], t.env);
      expect(objects).toContain('[REDACTED:');
      const leaked = secrets.filter((s) => [s.value, secretCore(s.value)].some((v) => objects.includes(v) || log.includes(v)));
      expect(leaked.map((s) => `${s.kind}: ${s.context}`)).toEqual([]);
    } finally {
      await t.done();
    }
  });

  it('commits, redacted, a hand-written capsule whose objective is nothing but a secret', async () => {
    const key = (generateSecrets(9).find((s) => s.kind === 'github-token') as PlantedSecret).value;
    const t = await openTempStore();
    try {
      const file = join(t.dir, 'only-a-key.md');
      writeFileSync(file, renderCapsule({ frontmatter: { id: testId(900), objective: key, waiting_on: 'nothing', next_valid_action: 'rotate it', status: 'active', created_at: '2026-11-29T20:00:00Z' }, sections: emptySections(), notes: '' }));
      const cli = await runCli(['write', file], { cwd: t.dir, env: t.env, now: NOW });
      expect(cli.code).toBe(0);
      const objects = everyObject(t.dir, t.env);
      expect(objects).toContain('[REDACTED:github-token]');
      expect(objects).not.toContain(key);
    } finally {
      await t.done();
    }
  });
});
