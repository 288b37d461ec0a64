import { shellSessionId } from '../../hosts/shell-session';
import { continueFrom } from '../../local-state/continuation';
import { runResume } from '../../resume-runtime/run-resume';
import { parseVerbArgs, usageError } from '../args';
import { shellLineageSignal } from '../shell-lineage';
import { EXIT, type Verb } from '../context';

/**
 * `git capsule resume`: prints exactly the text the SessionStart(clear|compact) hook injects,
 * consuming the capsule unless told not to. Run by the agent inside a session (the Bash tool
 * passes the host's `CLAUDE_PID` and `CLAUDE_CODE_SESSION_ID`; Codex's shell `CODEX_SESSION_ID`
 * under its client process), it resumes that session's own lineage first, and the session's next
 * autosave folds on top of what it loaded.
 */
export const verb: Verb = {
  name: 'resume',
  summary: 'select the newest valid active capsule, print the resume text and mark the capsule resumed',
  usage: `usage: git capsule resume [--id <id>] [--session-id <id>] [--no-consume] [--json]

  --id <id>            resume this capsule (id or unambiguous prefix) instead of the newest valid one:
                       the deliberate way to take a capsule of another author, machine or session
  --session-id <id>    the current session's id (default: CLAUDE_CODE_SESSION_ID or CODEX_SESSION_ID,
                       which Claude Code and Codex give the commands they run); without one the text
                       says CURRENT_SESSION_ID_UNAVAILABLE
  --no-consume         print the text without writing the capsule's resumed status event
  --json               print { text, capsuleId, consumed, deferred, unavailable, truncated }

Without --id it takes only this session's own capsules (its lineage, when run inside a Claude
Code or Codex session), else this author's on this machine (this worktree and branch first), else a
handoff addressed to this author; others are listed under CAPSULES NOT SELECTED with who and
where they came from. The output is the text the hook injects (at most 10,000 characters). Exit
0 whenever a text was produced, including when no capsule could be loaded (the text says why); 2
on usage errors.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('resume', args, {
      id: { type: 'string' },
      'session-id': { type: 'string' },
      'no-consume': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 0) throw usageError('resume', `unexpected argument ${JSON.stringify(positionals[0])}`);
    const sessionId = values['session-id'] ?? shellSessionId(ctx.env);
    const result = await runResume({
      cwd: ctx.cwd,
      env: ctx.env,
      now: ctx.now(),
      sessionId,
      consume: !values['no-consume'],
      ...(values.id === undefined ? {} : { capsuleId: values.id }),
      event: 'cli:resume',
      signal: shellLineageSignal(ctx.env),
      lineage: 'read',
    });
    // The skill path: the session that ran this goes on from what it loaded, like after a /clear.
    if (result.consumed && result.capsuleId && typeof sessionId === 'string' && result.runtimeDir) {
      try {
        continueFrom(result.runtimeDir, sessionId, result.capsuleId, result.doc, { keepExisting: false });
      } catch (err) {
        ctx.stderr(`git capsule resume: could not record that this session continues ${result.capsuleId}: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
    const { doc: _doc, lineage: _lineage, runtimeDir: _dir, ...reported } = result;
    ctx.stdout(values.json ? `${JSON.stringify(reported, null, 2)}\n` : result.text);
    return EXIT.OK;
  },
};
