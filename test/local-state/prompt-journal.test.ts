import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearPrompts, MAX_JOURNAL_PROMPTS, readPrompts, recordPrompt } from '../../lib/local-state/prompt-journal';

// The journal holds what the user typed until the next Stop folds it: a pasted key must never
// wait there in the clear, and the file is as private as the rest of the runtime state.
let runtimeDir: string;
beforeEach(() => {
  runtimeDir = mkdtempSync(join(tmpdir(), 'capsule-journal-'));
});
afterEach(() => rmSync(runtimeDir, { recursive: true, force: true }));

const SECRET = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const files = () => readdirSync(join(runtimeDir, 'sessions')).map((f) => join(runtimeDir, 'sessions', f));

describe('the prompt journal', () => {
  it('keeps a prompt with its secrets redacted, on disk as well as read back', () => {
    recordPrompt(runtimeDir, 's1', `deploy with GITHUB_TOKEN=${SECRET} please`);
    expect(readPrompts(runtimeDir, 's1')).toEqual([expect.stringMatching(/^deploy with GITHUB_TOKEN=\[REDACTED:[a-z-]+\] please$/)]);
    for (const file of files()) expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('is a private file (0600 in a 0700 folder)', () => {
    recordPrompt(runtimeDir, 's1', 'build the widget');
    const [file] = files();
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(statSync(join(runtimeDir, 'sessions')).mode & 0o777).toBe(0o700);
  });

  it('never writes through a link planted where it goes', () => {
    recordPrompt(runtimeDir, 's1', 'first');
    const [file] = files();
    const target = join(runtimeDir, 'bashrc');
    writeFileSync(target, 'untouched\n');
    rmSync(file!);
    symlinkSync(target, file!);
    expect(readPrompts(runtimeDir, 's1')).toEqual([]);
    recordPrompt(runtimeDir, 's1', 'second');
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
    expect(readPrompts(runtimeDir, 's1')).toEqual(['second']);
  });

  it(`keeps the last ${MAX_JOURNAL_PROMPTS} prompts, oldest first, and is emptied once folded`, () => {
    for (let i = 1; i <= MAX_JOURNAL_PROMPTS + 2; i += 1) recordPrompt(runtimeDir, 's1', `prompt ${i}`);
    expect(readPrompts(runtimeDir, 's1')).toEqual(Array.from({ length: MAX_JOURNAL_PROMPTS }, (_, i) => `prompt ${i + 3}`));
    clearPrompts(runtimeDir, 's1');
    expect(readPrompts(runtimeDir, 's1')).toEqual([]);
  });
});
