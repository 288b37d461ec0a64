import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { makePostCompactHook } from '../../lib/hooks/post-compact';
import { makePreCompactHook } from '../../lib/hooks/pre-compact';
import { MAX_JOURNAL_PROMPT_CHARS, readPrompts, recordPrompt } from '../../lib/local-state/prompt-journal';
import { MAX_WORK_EVENT_TEXT } from '../../lib/transcript/work-event-types';
import { git, makeTempRepo, runHookIn, turnRecords, type TempRepo } from '../hooks/hook-fixtures';
import { twelveRuns } from '../redact/allow-list-shapes';

// Issue 36: every text is redacted whole before anything cuts, joins or splits it. The secrets
// here are chosen so that only the order saves them: their rule needs the whole (a prefixed
// token with a length bound; a password whose value runs past `;`), and the part a cut or a
// split leaves reads as plain words, which the opaque-token mask keeps. A clip that runs first
// leaves a twelve-character run of them behind.
const TOKEN = 'sk-ant-api03-' + 'correcthorsebatterystaplewithmorewordsinside';
const PASSWORD_VALUE = 'Tr0ub;correcthorsebatterystaple';

const NOW = new Date('2026-11-29T21:00:00Z');

function leaked(secret: string, text: string): string[] {
  return twelveRuns(secret).filter((r) => text.includes(r)).slice(0, 3);
}

describe('redaction runs before every clip', () => {
  it("redacts a prompt whole before the journal's cut (a token straddling it keeps no head)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'clip-journal-'));
    try {
      for (const offset of [20, 13, 5]) {
        const prompt = `${'keep going with the deploy. '.repeat(200).slice(0, MAX_JOURNAL_PROMPT_CHARS - offset - 1)} ${TOKEN} and more`;
        recordPrompt(dir, 'sess-clip', prompt);
      }
      const kept = [...readPrompts(dir, 'sess-clip'), ...readdirSync(join(dir, 'sessions')).map((f) => readFileSync(join(dir, 'sessions', f), 'utf8'))].join('\n');
      expect(kept).toContain('keep going');
      expect(leaked(TOKEN, kept)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("PostCompact's summary", () => {
    let repo: TempRepo;
    beforeEach(() => {
      repo = makeTempRepo();
      const transcript = join(repo.dir, '..', 'transcript.jsonl');
      writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'build the widget', write: `${repo.dir}/w.ts` }));
      (repo as TempRepo & { transcript: string }).transcript = transcript;
    });
    afterEach(() => repo.cleanup());

    const run = async (summary: string) => {
      const transcript = (repo as TempRepo & { transcript: string }).transcript;
      await runHookIn(repo, makePreCompactHook(defaultDeps), { transcript_path: transcript, trigger: 'manual' }, NOW);
      await runHookIn(repo, makePostCompactHook(defaultDeps), { transcript_path: transcript, trigger: 'manual', compact_summary: summary }, NOW);
      return git(repo.dir, 'log', '-p', 'refs/heads/capsules');
    };

    it(`redacts a field before its ${MAX_WORK_EVENT_TEXT}-character cut`, async () => {
      const lead = 'finish the rollout of the payments service '.repeat(8).slice(0, MAX_WORK_EVENT_TEXT - 20);
      const log = await run(`summary\n<capsule-state>\nobjective: ${lead} with ${TOKEN}\nnext_valid_action: ${lead.slice(0, 200)} ${TOKEN}\n</capsule-state>`);
      expect(log).toContain('finish the rollout');
      expect(leaked(TOKEN, log)).toEqual([]);
    });

    it('redacts the decisions and the done list before they are split on ";"', async () => {
      const log = await run(`summary\n<capsule-state>\nobjective: ship it\ndone: set DB_PASSWORD=${PASSWORD_VALUE} on staging; migrated\ndecisions: keep the old endpoint; db_password: ${PASSWORD_VALUE}; ship on Friday\n</capsule-state>`);
      expect(log).toContain('keep the old endpoint');
      expect(leaked(PASSWORD_VALUE, log)).toEqual([]);
    });
  });
});
