import { shellSessionId } from '../../hosts/shell-session';
import { runResume } from '../../resume-runtime/run-resume';
import { parseVerbArgs, usageError } from '../args';
import { shellLineageSignal } from '../shell-lineage';
import { EXIT, type Verb } from '../context';

/**
 * `git capsule resume`: prints exactly the text the SessionStart(clear|compact) hook injects,
 * consuming the capsule unless told not to. Run by the agent inside a session (the Bash tool
 * passes the host's `CLAUDE_PID` and `CLAUDE_CODE_SESSION_ID`; Codex's shell `CODEX_SESSION_ID`
 * under its client process), it resumes that session's own lineage first, and re-bases the
 * session on what it loaded: its next autosave starts from that capsule (naming it as parent)
 * and the autosave it had before is set aside (`paused`).
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
where they came from. Inside a session, the session goes on from the capsule it loaded: its next
autosave starts from that state (parent_capsule_id names it), and the autosave it had before is
set aside as paused. The output is the text the hook injects (at most 10,000 characters). Exit
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
      // The skill path: the session that ran this goes on from what it loaded, like after a /clear.
      rebase: true,
    });
    if (result.rebased && 'failed' in result.rebased) ctx.stderr(`git capsule resume: ${result.rebased.failed}\n`);
    const { doc: _doc, lineage: _lineage, runtimeDir: _dir, rebased: _rebased, ...reported } = result;
    ctx.stdout(values.json ? `${JSON.stringify(reported, null, 2)}\n` : result.text);
    return EXIT.OK;
  },
};
