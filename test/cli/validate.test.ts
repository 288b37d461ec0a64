import { writeFileSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { join } from 'node:path';
import { capsuleWith } from '../capsule/fixtures';
import { runBundle, runCli } from '../support/run-cli';

const dir = tempDir('capsule-validate-');
const good = join(dir, 'good.md');
const bad = join(dir, 'bad.md');
writeFileSync(good, capsuleWith({}));
writeFileSync(bad, capsuleWith({ waiting_on: 'null', created_at: '2026-11-29' }));

describe('git capsule validate', () => {
  it('exits 0 and says ok for a resumable capsule', async () => {
    const r = await runCli(['validate', good]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ok: /);
  });

  it('exits 1 and names each problem code in text', async () => {
    const r = await runCli(['validate', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('WAITING_ON_NULL (waiting_on)');
    expect(r.stdout).toContain('CREATED_AT_DATE_ONLY (created_at)');
  });

  it('prints fields and problems as JSON with --json', async () => {
    const r = await runCli(['validate', '--json', bad]);
    const out = JSON.parse(r.stdout);
    expect(r.code).toBe(1);
    expect(out.fields.id).toBe('01JDQ6Z8W1N9V3C5Q7R2T4Y6XA');
    expect(out.problems.map((p: { code: string }) => p.code)).toEqual(['WAITING_ON_NULL', 'CREATED_AT_DATE_ONLY']);
    expect(out.problems[0]).toEqual(expect.objectContaining({ code: 'WAITING_ON_NULL', message: expect.any(String) }));
  });

  it('accepts a draft without id and created_at with --draft, and still names every other problem', async () => {
    const draft = '---\nobjective: "o"\nwaiting_on: "w"\nnext_valid_action: "n"\ntrigger: manual\n---\n';
    expect((await runCli(['validate', '-'], { stdin: draft })).code).toBe(1);
    const ok = await runCli(['validate', '--draft', '-'], { stdin: draft });
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok: - is a valid draft/) });
    const noNext = await runCli(['validate', '--draft', '-', '--json'], { stdin: draft.replace('next_valid_action: "n"\n', '') });
    expect(JSON.parse(noNext.stdout).problems.map((p: { code: string; field: string }) => `${p.code} ${p.field}`)).toEqual(['MISSING_REQUIRED_FIELD next_valid_action']);
  });

  it('reads standard input for -', async () => {
    const r = await runCli(['validate', '-', '--json'], { stdin: '---\n- a\n---\n' });
    expect(JSON.parse(r.stdout).problems[0].code).toBe('YAML_NOT_MAPPING');
  });

  it('exits 2 on a usage error', async () => {
    expect((await runCli(['validate'])).code).toBe(2);
    expect((await runCli(['validate', '--nope', good])).code).toBe(2);
  });

  it('exits 1 with a coded message for a file that does not exist', async () => {
    const r = await runCli(['validate', join(dir, 'missing.md')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[FILE_UNREADABLE]');
  });

  it('prints its help with --help', async () => {
    const r = await runCli(['validate', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('usage: git capsule validate');
  });

  it('works from the built bundle, as git capsule would run it', () => {
    const r = runBundle(['validate', '--json', '-'], { stdin: capsuleWith({ objective: '"[refresh-cycle] go"' }) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).problems.map((p: { code: string }) => p.code)).toEqual(['CONTENT_GATE_OBJECTIVE']);
  });
});

describe('git capsule', () => {
  it('lists its verbs with --help', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('validate');
  });

  it('prints its version', () => {
    expect(runBundle(['--version']).stdout).toMatch(/^git-capsule \d+\.\d+\.\d+/);
  });

  it('exits 2 on an unknown verb', async () => {
    expect((await runCli(['frobnicate'])).code).toBe(2);
  });
});
