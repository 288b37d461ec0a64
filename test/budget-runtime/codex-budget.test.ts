import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { join } from 'node:path';
import { budgetOnStop, budgetOnUserPromptSubmit, type BudgetHookContext } from '../../lib/budget-runtime/budget-hooks';
import { openBudgetWindow } from '../../lib/local-state/budget-state';
import { codexHost } from '../../lib/hosts/codex/codex-host';

// model_auto_compact_token_limit 100,000 in the project's .codex/config.toml: hard 91,808, warning 75,424.
function box(limit: number | null = 100_000) {
  const root = realpathSync(tempDir('capsule-codex-budget-'));
  const projectDir = join(root, 'project');
  mkdirSync(join(projectDir, '.codex'), { recursive: true });
  mkdirSync(join(root, 'home', '.codex'), { recursive: true });
  if (limit !== null) writeFileSync(join(projectDir, '.codex', 'config.toml'), `model_auto_compact_token_limit = ${limit}\n`);
  const warnings: Array<[string, string]> = [];
  const ctx: BudgetHookContext = {
    env: { PATH: process.env.PATH, HOME: join(root, 'home'), CODEX_HOME: join(root, 'home', '.codex'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    projectDir,
    runtimeDir: join(root, 'state'),
    warn: (code, message) => void warnings.push([code, message]),
    host: codexHost,
  };
  // A rollout whose last token_count reports `tokens` in the context window.
  const at = (session: string, tokens: number) => {
    const path = join(root, `rollout-2026-12-01T08-59-20-${session}.jsonl`);
    const info = { last_token_usage: { input_tokens: tokens - 10, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: tokens }, model_context_window: 258_400 };
    writeFileSync(path, `${JSON.stringify({ timestamp: 't', type: 'event_msg', payload: { type: 'token_count', info } })}\n`);
    return { session_id: session, transcript_path: path, cwd: projectDir };
  };
  return { ctx, warnings, at };
}

describe('the budget on the Codex CLI', () => {
  it('warns once per window from the warning point derived from model_auto_compact_token_limit', () => {
    const b = box();
    expect(budgetOnUserPromptSubmit(b.at('s1', 75_000), b.ctx)).toBeUndefined();
    expect(budgetOnUserPromptSubmit(b.at('s1', 80_000), b.ctx)?.additionalContext).toContain('context-capsule');
    expect(budgetOnUserPromptSubmit(b.at('s1', 81_000), b.ctx)).toBeUndefined();
  });

  it('blocks Stop once per window at the hard point, never while stop_hook_active, and again after a compaction', () => {
    const b = box();
    expect(budgetOnStop({ ...b.at('s1', 95_000), stop_hook_active: true }, b.ctx)).toBeUndefined();
    expect(budgetOnStop(b.at('s1', 95_000), b.ctx)?.block.reason).toMatch(/capsule/);
    expect(budgetOnStop(b.at('s1', 96_000), b.ctx)).toBeUndefined();
    openBudgetWindow(b.ctx.runtimeDir, 's1', { source: 'compact' });
    expect(budgetOnStop(b.at('s1', 95_000), b.ctx)).toBeDefined();
  });

  it("falls back to Codex's own default point (244,800 for gpt-5.5's window) when nothing is configured", () => {
    const b = box(null);
    // hard = 244,800 − 8,192 = 236,608
    expect(budgetOnStop(b.at('s1', 236_000), b.ctx)).toBeUndefined();
    expect(budgetOnStop(b.at('s1', 237_000), b.ctx)).toBeDefined();
  });

  it("logs nothing on a new session's first prompt, before Codex has counted a token, and warns once it has", () => {
    const b = box(null);
    const path = join(b.ctx.projectDir, '..', 'rollout-2026-12-01T08-59-20-s0.jsonl');
    writeFileSync(path, `${JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: 's0' } })}\n`);
    expect(budgetOnUserPromptSubmit({ session_id: 's0', transcript_path: path, cwd: b.ctx.projectDir }, b.ctx)).toBeUndefined();
    expect(b.warnings).toEqual([]);
    expect(budgetOnUserPromptSubmit(b.at('s0', 230_000), b.ctx)?.additionalContext).toContain('context-capsule');
  });

  it('says nothing, and logs once, when margins leave no room below a small limit', () => {
    const b = box(20_000);
    expect(budgetOnUserPromptSubmit(b.at('s1', 19_000), b.ctx)).toBeUndefined();
    expect(budgetOnUserPromptSubmit(b.at('s1', 19_500), b.ctx)).toBeUndefined();
    expect(b.warnings.filter(([code]) => code === 'BUDGET_UNRESOLVABLE')).toHaveLength(1);
  });
});
