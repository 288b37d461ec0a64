import { runResume } from '../../resume-runtime/run-resume';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type Verb } from '../context';

/** `git capsule resume`: prints exactly the text the SessionStart(clear|compact) hook injects, consuming the capsule unless told not to. */
export const verb: Verb = {
  name: 'resume',
  summary: 'select the newest valid active capsule, print the resume text and mark the capsule resumed',
  usage: `usage: git capsule resume [--id <id>] [--session-id <id>] [--no-consume] [--json]

  --id <id>            resume this capsule (id or unambiguous prefix) instead of the newest valid one
  --session-id <id>    the current session's id (the hook passes its session_id); without it the
                       text says CURRENT_SESSION_ID_UNAVAILABLE
  --no-consume         print the text without writing the capsule's resumed status event
  --json               print { text, capsuleId, consumed, deferred, unavailable, truncated }

The output is the text the hook injects (at most 10,000 characters). Exit 0 whenever a text was
produced, including when no capsule could be loaded (the text says why); 2 on usage errors.`,
  async run(args, ctx) {
    const { values, positionals } = parseVerbArgs('resume', args, {
      id: { type: 'string' },
      'session-id': { type: 'string' },
      'no-consume': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 0) throw usageError('resume', `unexpected argument ${JSON.stringify(positionals[0])}`);
    const result = await runResume({
      cwd: ctx.cwd,
      env: ctx.env,
      now: ctx.now(),
      sessionId: values['session-id'],
      consume: !values['no-consume'],
      ...(values.id === undefined ? {} : { capsuleId: values.id }),
      event: 'cli:resume',
    });
    ctx.stdout(values.json ? `${JSON.stringify(result, null, 2)}\n` : result.text);
    return EXIT.OK;
  },
};
