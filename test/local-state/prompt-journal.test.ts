import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearPrompts, MAX_JOURNAL_BYTES, MAX_JOURNAL_PROMPT_CHARS, MAX_JOURNAL_PROMPTS, readPrompts, recordPrompt } from '../../lib/local-state/prompt-journal';

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

describe('the prompt journal and the hook that folds it', () => {
  const early = { tick: '100', origin: 1000 };
  const folding = { tick: '150', origin: 1500 };
  const next = { tick: '200', origin: 2000 };

  it('gives a fold only the prompts of hooks started no later than it, and keeps the later ones for the next fold', () => {
    recordPrompt(runtimeDir, 's1', 'this turn', early);
    recordPrompt(runtimeDir, 's1', 'the next turn', next);
    expect(readPrompts(runtimeDir, 's1', folding)).toEqual(['this turn']);
    clearPrompts(runtimeDir, 's1', folding);
    expect(readPrompts(runtimeDir, 's1')).toEqual(['the next turn']);
    clearPrompts(runtimeDir, 's1', next);
    expect(readPrompts(runtimeDir, 's1')).toEqual([]);
  });

  it('orders by the kernel start tick where both have one, else by the time origin; a prompt without a stamp is always read', () => {
    recordPrompt(runtimeDir, 's1', 'same tick', { tick: '150', origin: 9999 });
    recordPrompt(runtimeDir, 's1', 'later origin', { origin: 1600 });
    recordPrompt(runtimeDir, 's1', 'unstamped');
    expect(readPrompts(runtimeDir, 's1', folding)).toEqual(['same tick', 'unstamped']);
  });
});

describe('the prompt journal on disk', () => {
  const journal = () => join(runtimeDir, 'sessions', 's1.prompts.json');

  it('appends each prompt to the file it has (no rename over it: that costs milliseconds on ext4, before every prompt)', () => {
    recordPrompt(runtimeDir, 's1', 'first');
    const inode = statSync(journal()).ino;
    recordPrompt(runtimeDir, 's1', 'second');
    expect(statSync(journal()).ino).toBe(inode);
    expect(readFileSync(journal(), 'utf8')).toBe('"first"\n"second"\n');
    expect(readPrompts(runtimeDir, 's1')).toEqual(['first', 'second']);
  });

  it('still reads a journal an older version wrote as one array, and records on into it', () => {
    mkdirSync(join(runtimeDir, 'sessions'), { recursive: true, mode: 0o700 });
    writeFileSync(journal(), JSON.stringify(['older', 'old']), { mode: 0o600 });
    expect(readPrompts(runtimeDir, 's1')).toEqual(['older', 'old']);
    recordPrompt(runtimeDir, 's1', 'new');
    expect(readPrompts(runtimeDir, 's1')).toEqual(['older', 'old', 'new']);
  });

  it('skips a line a killed write cut short, and keeps the prompt recorded after it', () => {
    mkdirSync(join(runtimeDir, 'sessions'), { recursive: true, mode: 0o700 });
    writeFileSync(journal(), '"kept"\n"cut sh', { mode: 0o600 });
    recordPrompt(runtimeDir, 's1', 'after');
    expect(readPrompts(runtimeDir, 's1')).toEqual(['kept', 'after']);
  });

  it(`is cut down to its last ${MAX_JOURNAL_PROMPTS} prompts once past ${MAX_JOURNAL_BYTES} bytes (prompts with no Stop between them)`, () => {
    // Filler of words: a run like `xxxx…` reads as an opaque token, which the journal masks (issue 36).
    const long = (i: number) => `${i} `.padEnd(MAX_JOURNAL_PROMPT_CHARS, 'word ');
    for (let i = 1; i <= 40; i += 1) recordPrompt(runtimeDir, 's1', long(i));
    expect(statSync(journal()).size).toBeLessThan(MAX_JOURNAL_BYTES + MAX_JOURNAL_PROMPT_CHARS + 3);
    expect(readPrompts(runtimeDir, 's1')).toEqual([37, 38, 39, 40].map(long));
  });
});
