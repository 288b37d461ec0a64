import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSandbox, usageRecord, type BudgetSandbox } from './budget-harness';

const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const S3 = '33333333-3333-4333-8333-333333333333';

let box: BudgetSandbox;
beforeEach(() => {
  box = makeSandbox();
});

async function budgetJson(args: string[] = [], env?: NodeJS.ProcessEnv) {
  const { code, stdout, stderr } = await box.run(['budget', '--json', ...args], { env });
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(stdout);
}

describe('git capsule budget', () => {
  it("reads the project's newest transcript by default and prints fill and points", async () => {
    box.writeTranscript(S1, [usageRecord(100_000), usageRecord(150_000)]);
    const out = await budgetJson();
    expect(out).toMatchObject({ fill: { tokens: 150_000 }, model: 'claude-sonnet-4-5', status: 'ok', points: { warning: 142_424, hard: 158_808, native: { tokens: 167_000 } }, window: `${S1}:0` });
  });

  it('reads the transcript of --session and of --transcript', async () => {
    const path = box.writeTranscript(S2, [usageRecord(42_000)]);
    box.writeTranscript(S3, [usageRecord(7_000)]);
    expect((await budgetJson(['--session', S2])).fill.tokens).toBe(42_000);
    expect((await budgetJson(['--transcript', path])).fill.tokens).toBe(42_000);
  });

  it('prints the points without a fill when there is no transcript', async () => {
    const out = await budgetJson();
    expect(out).toMatchObject({ fill: null, fillProblem: 'no transcript found', status: 'ok', points: { hard: 158_808 } });
  });

  it('prints a human report naming where each point came from', async () => {
    box.writeTranscript(S1, [usageRecord(150_000)]);
    const { code, stdout } = await box.run(['budget']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^context fill +150,000 tokens/m);
    expect(stdout).toMatch(/^native point +167,000: window − output reserve 20,000 − summary buffer 13,000/m);
    expect(stdout).toMatch(/^hard point +158,808: native − resetMarginTokens 8,192 \(default\)/m);
    expect(stdout).toMatch(/^warning +142,424: hard − warningRunwayTokens 16,384 \(default\)/m);
  });

  it('merges user, project and local Claude settings with the later file winning', async () => {
    mkdirSync(join(box.home, '.claude'), { recursive: true });
    mkdirSync(join(box.repo, '.claude'));
    writeFileSync(join(box.home, '.claude', 'settings.json'), JSON.stringify({ autoCompactWindow: 150_000 }));
    writeFileSync(join(box.repo, '.claude', 'settings.json'), JSON.stringify({ autoCompactWindow: 140_000 }));
    expect((await budgetJson()).points.native).toMatchObject({ tokens: 107_000, windowSource: 'settings' });
    writeFileSync(join(box.repo, '.claude', 'settings.local.json'), JSON.stringify({ autoCompactEnabled: false }));
    expect((await budgetJson()).points).toMatchObject({ native: { tokens: 180_000, autoCompact: false }, blockEnabled: false });
  });

  it('notes a settings file that is not JSON and goes on', async () => {
    mkdirSync(join(box.repo, '.claude'));
    writeFileSync(join(box.repo, '.claude', 'settings.json'), '{ nope');
    const out = await budgetJson();
    expect(out.status).toBe('ok');
    expect(out.notes).toHaveLength(1);
  });

  it('reads the margins from .capsule/config.json, then git config', async () => {
    mkdirSync(join(box.repo, '.capsule'));
    writeFileSync(join(box.repo, '.capsule', 'config.json'), JSON.stringify({ resetMarginTokens: 1000 }));
    execFileSync('git', ['config', 'capsule.warningRunwayTokens', '2000'], { cwd: box.repo });
    const out = await budgetJson();
    expect(out.points).toMatchObject({ hard: 166_000, warning: 164_000, margins: { from: { resetMarginTokens: 'config', warningRunwayTokens: 'git-config' } } });
  });

  it('ignores a margin the schema refuses, with notes, and uses the default', async () => {
    mkdirSync(join(box.repo, '.capsule'));
    writeFileSync(join(box.repo, '.capsule', 'config.json'), JSON.stringify({ resetMarginTokens: 'lots' }));
    const out = await budgetJson();
    expect(out.points.margins).toMatchObject({ resetMarginTokens: 8192, from: { resetMarginTokens: 'default' } });
    expect(out.notes.length).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['CAPSULE_DISABLED', { CAPSULE_DISABLED: '' }, 'disabled'],
    ['DISABLE_COMPACT', { DISABLE_COMPACT: '1' }, 'suppressed'],
  ])('reports the %s switch', async (_name, env, status) => {
    expect((await budgetJson([], env)).status).toBe(status);
  });

  it('refuses --transcript together with --session', async () => {
    expect((await box.run(['budget', '--transcript', 'x', '--session', 'y'])).code).toBe(2);
  });
});

describe('git capsule budget cap', () => {
  it('sets, shows and clears the runtime cap, which lowers the points', async () => {
    expect((await box.run(['budget', 'cap', '100k'])).code).toBe(0);
    expect(JSON.parse((await box.run(['budget', 'cap', '--json'])).stdout)).toEqual({ cap: 100_000 });
    expect((await budgetJson()).points.native).toMatchObject({ tokens: 67_000, windowSource: 'cap' });
    expect((await box.run(['budget', 'cap', 'off'])).code).toBe(0);
    expect((await box.run(['budget', 'cap'])).stdout).toBe('cap: off\n');
    expect((await budgetJson()).points.native.tokens).toBe(167_000);
  });

  it('gives a cap set from inside a session to that session only, and --all-sessions to every one', async () => {
    box.writeTranscript(S1, [usageRecord(10_000)]);
    box.writeTranscript(S2, [usageRecord(10_000)]);
    const set = await box.run(['budget', 'cap', '100k', '--json'], { env: { CLAUDE_CODE_SESSION_ID: S1 } });
    expect(JSON.parse(set.stdout)).toEqual({ cap: 100_000, session: S1 });
    expect((await budgetJson(['--session', S1])).points.native).toMatchObject({ windowSource: 'cap' });
    expect((await budgetJson(['--session', S2])).points.native.windowSource).not.toBe('cap');
    await box.run(['budget', 'cap', '100k', '--all-sessions']);
    expect((await budgetJson(['--session', S2])).points.native).toMatchObject({ windowSource: 'cap' });
  });

  it.each(['1.5m', '250000', '0.25M'])('accepts %s', async (value) => {
    expect((await box.run(['budget', 'cap', value])).code).toBe(0);
  });

  it('refuses a cap too small for the reserves and margins', async () => {
    const { code, stderr } = await box.run(['budget', 'cap', '57576']);
    expect(code).toBe(1);
    expect(stderr).toContain('[CAP_TOO_SMALL]');
    expect((await box.run(['budget', 'cap', '57577'])).code).toBe(0);
  });

  it.each(['lots', '-5', '1e5', '100.5'])('refuses %s as a usage error', async (value) => {
    expect((await box.run(['budget', 'cap', value])).code).toBe(2);
  });

  it('refuses outside a repository without CAPSULE_STATE_DIR', async () => {
    const outside = tempDir('capsule-norepo-');
    const { code, stderr } = await box.run(['budget', 'cap', '100k'], { cwd: outside, env: { CAPSULE_STATE_DIR: undefined, GIT_CEILING_DIRECTORIES: tmpdir() } });
    expect(code).toBe(1);
    expect(stderr).toContain('[NOT_A_REPO]');
  });
});
