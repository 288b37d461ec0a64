import { parseVerbArgs } from '../args';
import { EXIT, type Verb } from '../context';
import { paint } from '../colour';
import { runDoctorChecks } from '../doctor-checks';

/** `git capsule doctor`: checks git, node, the memory ref, the hook wiring, stale ref locks and the last logged errors. */
export const verb: Verb = {
  name: 'doctor',
  summary: 'check git, node, the memory ref, the hook wiring, stale ref locks and recent hook errors, and say how to fix each',
  usage: `usage: git capsule doctor [--json]

  --json   print [{ "name", "status": "ok"|"warn"|"fail", "detail", "fix"? }]

Exit 0 when nothing failed (warnings allowed), 1 when a check failed.`,
  async run(args, ctx) {
    const { values } = parseVerbArgs('doctor', args, { json: { type: 'boolean' } }, false);
    const checks = await runDoctorChecks(ctx.cwd, ctx.env, ctx.now());
    if (values.json) ctx.stdout(`${JSON.stringify(checks, null, 2)}\n`);
    else {
      const tone = { ok: 'ok', warn: 'warn', fail: 'fail' } as const;
      const width = Math.max(...checks.map((c) => c.name.length));
      for (const c of checks) {
        ctx.stdout(`${paint(tone[c.status], c.status.toUpperCase().padEnd(4))} ${c.name.padEnd(width)}  ${c.detail}\n`);
        if (c.fix && c.status !== 'ok') ctx.stdout(`${' '.repeat(width + 7)}${paint('dim', 'fix:')} ${c.fix}\n`);
      }
    }
    return checks.some((c) => c.status === 'fail') ? EXIT.FAILURE : EXIT.OK;
  },
};
