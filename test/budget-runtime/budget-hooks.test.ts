import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { join } from 'node:path';
import { budgetOnStop, budgetOnUserPromptSubmit, type BudgetHookContext } from '../../lib/budget-runtime/budget-hooks';
import { openBudgetWindow } from '../../lib/local-state/budget-state';
import { createGitRunner } from '../../lib/git/git-runner';
import { readCachedConfig } from '../../lib/local-state/cached-config';

interface Box {
  ctx: BudgetHookContext;
  warnings: Array<[string, string]>;
  transcript: (session: string, records: unknown[]) => string;
}

function box(env: NodeJS.ProcessEnv = {}): Box {
  const root = realpathSync(tempDir('capsule-budget-hooks-'));
  const projectDir = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(projectDir);
  mkdirSync(home);
  const warnings: Array<[string, string]> = [];
  const ctx: BudgetHookContext = {
    // An empty HOME keeps the real user's Claude settings out; GIT_DIR points git config at nothing.
    env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
    projectDir,
    runtimeDir: join(root, 'state'),
    warn: (code, message) => void warnings.push([code, message]),
  };
  const transcript = (session: string, records: unknown[]) => {
    const path = join(root, `${session}.jsonl`);
    writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return path;
  };
  return { ctx, warnings, transcript };
}

const usage = (input: number, model = 'claude-sonnet-4-5') => ({ type: 'assistant', message: { model, usage: { input_tokens: input } } });
// claude-sonnet-4-5: native 167000, hard 158808, warning 142424.

function payload(b: Box, session: string, tokens: number) {
  return { session_id: session, transcript_path: b.transcript(session, [usage(tokens)]), cwd: b.ctx.projectDir };
}

describe('budgetOnUserPromptSubmit', () => {
  it('says nothing below the warning point', () => {
    const b = box();
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 142_423), b.ctx)).toBeUndefined();
  });

  it('warns once per window from the warning point', () => {
    const b = box();
    const first = budgetOnUserPromptSubmit(payload(b, 's1', 150_000), b.ctx);
    expect(first?.additionalContext).toContain('context-capsule');
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 151_000), b.ctx)).toBeUndefined();
  });

  it('warns again after a compaction starts a new window', () => {
    const b = box();
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 150_000), b.ctx)).toBeDefined();
    openBudgetWindow(b.ctx.runtimeDir, 's1', { source: 'compact' });
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 150_000), b.ctx)).toBeDefined();
  });

  it('starts clean for the new session id /clear brings', () => {
    const b = box();
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 150_000), b.ctx)).toBeDefined();
    openBudgetWindow(b.ctx.runtimeDir, 's2', { source: 'clear' });
    expect(budgetOnUserPromptSubmit(payload(b, 's2', 150_000), b.ctx)).toBeDefined();
  });

  it('does not reset the window on a resume', () => {
    const b = box();
    budgetOnUserPromptSubmit(payload(b, 's1', 150_000), b.ctx);
    openBudgetWindow(b.ctx.runtimeDir, 's1', { source: 'resume' });
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 150_000), b.ctx)).toBeUndefined();
  });

  it('logs DISABLE_COMPACT once per session and never warns', () => {
    const b = box({ DISABLE_COMPACT: '1' });
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 190_000), b.ctx)).toBeUndefined();
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 190_000), b.ctx)).toBeUndefined();
    expect(b.warnings.map(([code]) => code)).toEqual(['BUDGET_SUPPRESSED']);
  });

  it('logs an unresolvable point once per session and skips the warning', () => {
    const b = box();
    mkdirSync(join(b.ctx.projectDir, '.capsule'));
    writeFileSync(join(b.ctx.projectDir, '.capsule', 'config.json'), JSON.stringify({ resetMarginTokens: 167_000 }));
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 190_000), b.ctx)).toBeUndefined();
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 190_000), b.ctx)).toBeUndefined();
    expect(b.warnings.map(([code]) => code)).toEqual(['BUDGET_UNRESOLVABLE']);
  });

  it('uses the model SessionStart(compact) named when the transcript ends in a compaction', () => {
    const b = box();
    const boundary = { type: 'system', subtype: 'compact_boundary', compactMetadata: { postTokens: 150_000 } };
    const input = { session_id: 's1', transcript_path: b.transcript('s1', [usage(10, 'claude-opus-5-5'), boundary]), cwd: b.ctx.projectDir };
    openBudgetWindow(b.ctx.runtimeDir, input.session_id, { source: 'compact', model: 'claude-opus-5-5' });
    // 150000 is far below the 1M model's warning point; the 200K default would have warned.
    expect(budgetOnUserPromptSubmit(input, b.ctx)).toBeUndefined();
  });

  it('does nothing without a transcript path, and writes no state', () => {
    const b = box();
    expect(budgetOnUserPromptSubmit({ session_id: 's1', cwd: b.ctx.projectDir }, b.ctx)).toBeUndefined();
    expect(existsSync(b.ctx.runtimeDir)).toBe(false);
  });

  it('fails open with a logged code on a session id that is not a file name', () => {
    const b = box();
    const input = { ...payload(b, 's1', 150_000), session_id: '../escape' };
    expect(budgetOnUserPromptSubmit(input, b.ctx)).toBeUndefined();
    expect(b.warnings.map(([code]) => code)).toEqual(['BAD_SESSION_ID']);
  });
});

describe('budgetOnStop', () => {
  it('blocks once per window from the hard point, asking for the capsule and /clear', () => {
    const b = box();
    const first = budgetOnStop(payload(b, 's1', 158_808), b.ctx);
    expect(first?.block.reason).toMatch(/context-capsule[\s\S]*\/clear/);
    expect(budgetOnStop(payload(b, 's1', 160_000), b.ctx)).toBeUndefined();
  });

  it('does not block below the hard point', () => {
    const b = box();
    expect(budgetOnStop(payload(b, 's1', 158_807), b.ctx)).toBeUndefined();
  });

  it('never blocks while stop_hook_active is true, and still blocks on the next plain Stop', () => {
    const b = box();
    expect(budgetOnStop({ ...payload(b, 's1', 160_000), stop_hook_active: true }, b.ctx)).toBeUndefined();
    expect(budgetOnStop(payload(b, 's1', 160_000), b.ctx)).toBeDefined();
  });

  it('never blocks when automatic compaction is off in the project settings', () => {
    const b = box();
    mkdirSync(join(b.ctx.projectDir, '.claude'));
    writeFileSync(join(b.ctx.projectDir, '.claude', 'settings.json'), JSON.stringify({ autoCompactEnabled: false }));
    expect(budgetOnStop(payload(b, 's1', 179_000), b.ctx)).toBeUndefined();
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 179_000), b.ctx)).toBeDefined();
  });

  it('counts the block as the warning of its window', () => {
    const b = box();
    expect(budgetOnStop(payload(b, 's1', 160_000), b.ctx)).toBeDefined();
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 160_000), b.ctx)).toBeUndefined();
  });

  it('honours the runtime cap', () => {
    const b = box();
    mkdirSync(join(b.ctx.runtimeDir, 'budget'), { recursive: true });
    writeFileSync(join(b.ctx.runtimeDir, 'budget', 'cap.json'), JSON.stringify({ tokens: 100_000 }));
    // cap 100000: native 67000, hard 58808.
    expect(budgetOnStop(payload(b, 's1', 60_000), b.ctx)).toBeDefined();
  });
});

describe('the git config the budget reads', () => {
  const fillCache = (b: Box) => readCachedConfig(createGitRunner({ cwd: b.ctx.projectDir, env: b.ctx.env }), { racyMs: 0 });

  it('lets UserPromptSubmit use the config cache the last hook filled, without running git', async () => {
    const b = box();
    execFileSync('git', ['init', '-q', b.ctx.projectDir]);
    execFileSync('git', ['config', 'capsule.warningRunwayTokens', '40000'], { cwd: b.ctx.projectDir });
    // 130000 is below the default warning point (142424) but past 158808 − 40000 = 118808.
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 130_000), b.ctx)).toBeUndefined();
    await fillCache(b);
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 130_000), b.ctx)).toBeDefined();
  });

  it('uses the default margins once the config changed after the cache was filled', async () => {
    const b = box();
    execFileSync('git', ['init', '-q', b.ctx.projectDir]);
    execFileSync('git', ['config', 'capsule.warningRunwayTokens', '40000'], { cwd: b.ctx.projectDir });
    await fillCache(b);
    execFileSync('git', ['config', '--unset', 'capsule.warningRunwayTokens'], { cwd: b.ctx.projectDir });
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 130_000), b.ctx)).toBeUndefined();
  });

  it('takes the values the hook already read before the cache', async () => {
    const b = box();
    execFileSync('git', ['init', '-q', b.ctx.projectDir]);
    await fillCache(b);
    expect(budgetOnUserPromptSubmit(payload(b, 's1', 130_000), { ...b.ctx, gitConfig: { 'capsule.warningrunwaytokens': '40000' } })).toBeDefined();
  });
});
