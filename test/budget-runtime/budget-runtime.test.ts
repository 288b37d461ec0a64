import { mkdirSync, writeFileSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { join } from 'node:path';
import { BUDGET_STATE_REFRESH_MS, emptyBudgetState, readCap, readBudgetState, budgetStatePath, writeCap, writeBudgetState } from '../../lib/local-state/budget-state';
import { mergeSettings, readClaudeSettings } from '../../lib/hosts/claude/merged-settings';
import { readTranscriptFill } from '../../lib/hosts/claude/transcript-fill';
import { isCapsuleError } from '../../lib/errors/capsule-error';

const tmp = () => tempDir('capsule-budget-io-');

describe('readTranscriptFill', () => {
  it('reads further back than the first tail when the newest records carry no usage', () => {
    const dir = tmp();
    const path = join(dir, 't.jsonl');
    const usage = { type: 'assistant', message: { model: 'm', usage: { input_tokens: 77 } } };
    // ~600 KiB of records without usage after the last usage record: past the 256 KiB first tail.
    const filler = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ type: 'progress', i, pad: 'x'.repeat(200) }));
    writeFileSync(path, [JSON.stringify(usage), ...filler].join('\n') + '\n');
    const read = readTranscriptFill(path);
    expect(read).toMatchObject({ ok: true, fill: { tokens: 77 } });
    if (read.ok) expect(read.bytesRead).toBeGreaterThan(256 * 1024);
  });

  it('reads the fill from a last assistant line of 3 MB (over the tail line cap: scanned, its usage kept)', () => {
    const path = join(tmp(), 't.jsonl');
    const old = { type: 'assistant', message: { model: 'm', usage: { input_tokens: 1 } } };
    const giant = { type: 'assistant', message: { model: 'm', content: [{ type: 'tool_use', id: 't', name: 'Write', input: { content: 'w'.repeat(3_000_000) } }], usage: { input_tokens: 5, cache_read_input_tokens: 1000 } } };
    writeFileSync(path, `${JSON.stringify(old)}\n${JSON.stringify(giant)}\n`);
    expect(readTranscriptFill(path)).toMatchObject({ ok: true, fill: { tokens: 1005 } });
  });

  it('reads past a giant last tool output to the usage record before it', () => {
    const path = join(tmp(), 't.jsonl');
    const usage = { type: 'assistant', message: { model: 'm', usage: { input_tokens: 42 } } };
    const output = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'o'.repeat(3_000_000) }] } };
    writeFileSync(path, `${JSON.stringify(usage)}\n${JSON.stringify(output)}\n`);
    expect(readTranscriptFill(path)).toMatchObject({ ok: true, fill: { tokens: 42 } });
  });

  it('reports an unreadable transcript as a result, not a throw', () => {
    expect(readTranscriptFill(join(tmp(), 'missing.jsonl'))).toMatchObject({ ok: false, code: 'TRANSCRIPT_UNREADABLE' });
  });
});

describe('readBudgetState', () => {
  it('round-trips what writeBudgetState wrote', () => {
    const dir = tmp();
    const state = { ...emptyBudgetState(), warnedWindow: 's:1', windowOrdinal: 1, lastModel: 'm' };
    writeBudgetState(dir, 's', state);
    expect(readBudgetState(dir, 's')).toEqual(state);
  });

  it('leaves an unchanged state where it is (most prompts change nothing, and a rename over the file costs ms), but writes a changed one', () => {
    const dir = tmp();
    const state = { ...emptyBudgetState(), lastModel: 'm' };
    writeBudgetState(dir, 's', state);
    const inode = statSync(budgetStatePath(dir, 's')).ino;
    writeBudgetState(dir, 's', { ...state });
    expect(statSync(budgetStatePath(dir, 's')).ino).toBe(inode);
    writeBudgetState(dir, 's', { ...state, warnedWindow: 's:0' });
    expect(statSync(budgetStatePath(dir, 's')).ino).not.toBe(inode);
    expect(readBudgetState(dir, 's').warnedWindow).toBe('s:0');
  });

  it('still rewrites an unchanged state once a day, so pruning (by age) never drops a live session\'s flags', () => {
    const dir = tmp();
    const state = { ...emptyBudgetState(), warnedWindow: 's:0' };
    writeBudgetState(dir, 's', state);
    const path = budgetStatePath(dir, 's');
    const old = new Date(Date.now() - BUDGET_STATE_REFRESH_MS - 60_000);
    utimesSync(path, old, old);
    writeBudgetState(dir, 's', state);
    expect(Date.now() - statSync(path).mtimeMs).toBeLessThan(BUDGET_STATE_REFRESH_MS);
  });

  it.each([
    ['a missing file', null],
    ['a damaged file', '{"warnedWindow": '],
    ['fields of the wrong types', JSON.stringify({ warnedWindow: 5, windowOrdinal: -1, lastModel: [] })],
  ])('reads %s as a fresh state', (_name, text) => {
    const dir = tmp();
    if (text !== null) {
      mkdirSync(join(dir, 'budget'));
      writeFileSync(join(dir, 'budget', 's.json'), text);
    }
    expect(readBudgetState(dir, 's')).toEqual(emptyBudgetState());
  });

  it.each(['../x', '.hidden', 'a/b', '', 'x'.repeat(129)])('refuses the session id %j as a file name', (id) => {
    let caught: unknown;
    try {
      budgetStatePath('/tmp', id);
    } catch (err) {
      caught = err;
    }
    expect(isCapsuleError(caught, 'BAD_SESSION_ID')).toBe(true);
  });
});

describe('readCap', () => {
  it('reads what writeCap wrote and null once cleared', () => {
    const dir = tmp();
    writeCap(dir, 100_000, new Date('2026-11-29T22:00:00Z'));
    expect(readCap(dir)).toBe(100_000);
    expect(JSON.parse(readFileSync(join(dir, 'budget', 'cap.json'), 'utf8')).setAt).toBe('2026-11-29T22:00:00.000Z');
    writeCap(dir, null, new Date());
    expect(readCap(dir)).toBeNull();
  });

  it('reads a damaged cap file as no cap', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'budget'));
    writeFileSync(join(dir, 'budget', 'cap.json'), JSON.stringify({ tokens: '100k' }));
    expect(readCap(dir)).toBeNull();
  });
});

describe('readClaudeSettings', () => {
  it('reads user, project and local settings in that order', () => {
    const home = tmp();
    const project = tmp();
    mkdirSync(join(home, '.claude'));
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ a: 1, modelSettings: { x: { autoCompactWindow: 1 } } }));
    writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ a: 3, modelSettings: { y: { autoCompactWindow: 2 } } }));
    const result = readClaudeSettings({ env: { HOME: home }, projectDir: project });
    expect(result.merged).toEqual({ a: 3, modelSettings: { x: { autoCompactWindow: 1 }, y: { autoCompactWindow: 2 } } });
    expect(result.files.map((f) => f.status)).toEqual(['read', 'missing', 'read']);
  });
});

describe('readClaudeSettings with CLAUDE_CONFIG_DIR', () => {
  it('reads the user settings from CLAUDE_CONFIG_DIR instead of ~/.claude', () => {
    const config = tmp();
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ autoCompactWindow: 150_000 }));
    expect(readClaudeSettings({ env: { HOME: tmp(), CLAUDE_CONFIG_DIR: config }, projectDir: tmp() }).merged).toEqual({ autoCompactWindow: 150_000 });
  });
});

describe('mergeSettings', () => {
  it('lets the later value win, merging objects key by key and replacing arrays', () => {
    expect(mergeSettings({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2] }, d: { e: 1 } })).toEqual({ a: { b: 1, c: [2] }, d: { e: 1 } });
  });
});

describe('readTranscriptFill on a file being written', () => {
  it('reads a whole last record whose newline is not written yet', () => {
    const path = join(tmp(), 't.jsonl');
    const rec = (n: number) => JSON.stringify({ type: 'assistant', message: { model: 'm', usage: { input_tokens: n } } });
    writeFileSync(path, `${rec(1)}\n${rec(2)}`);
    expect(readTranscriptFill(path)).toMatchObject({ ok: true, fill: { tokens: 2 } });
  });
});
