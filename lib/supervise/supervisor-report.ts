import type { SupervisorReport } from './supervisor-events';

const PREFIX = 'git capsule supervise:';
const n = (v: number) => v.toLocaleString('en-US');
const short = (session: string | null) => (session === null ? 'unknown' : session.slice(0, 8));
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * One report as the line the supervisor writes to stderr (its stdout is the client's stream).
 * Every line starts with `git capsule supervise:` so it can be told from the client's own.
 */
export function renderReportLine(r: SupervisorReport): string {
  const tag = 'reset' in r ? `${PREFIX} reset ${r.reset}:` : PREFIX;
  switch (r.kind) {
    case 'armed':
      return `${tag} the context holds ${n(r.fill)} tokens, past the ${r.pointName} ${n(r.point)} (session ${short(r.session)}${r.by === 'block' ? ", seen in the hook's block" : ''}); waiting for the turn to end and for the capsule`;
    case 'asked':
      return `${tag} no capsule request reached the agent in that turn; asked it to write the capsule`;
    case 'capsule':
      return `${tag} capsule written: ${r.id} (an active capsule on the memory branch); sending /clear`;
    case 'capsule-refused':
      return `${tag} the agent announced capsule ${r.id}, but ${r.why}; it does not count`;
    case 'no-capsule':
      return `${tag} no capsule written (waited ${seconds(r.waitedMs)} after the request); the lineage's autosave stands as the resume; sending /clear`;
    case 'held':
      return `${tag} held: the coordination state says phase "${r.phase}", owned by another conductor; the reset waits until it ends`;
    case 'cleared':
      return `${tag} /clear done (new session ${short(r.session)}); sending the continuation`;
    case 'continued':
      return `${tag} done${r.held > 0 ? `; ${r.held} held message${r.held === 1 ? '' : 's'} follow${r.held === 1 ? 's' : ''} the continuation` : ''}`;
    case 'max-resets':
      return `${PREFIX} the context holds ${n(r.fill)} tokens, past the reset point, but ${r.max} reset${r.max === 1 ? ' is' : 's are'} done (--max-resets): no more resets; the hook's block-and-ask stands`;
    case 'no-reset-point':
      return `${PREFIX} no automatic reset: ${r.why}`;
    case 'undelivered':
      return `${PREFIX} the client exited with ${r.count} message${r.count === 1 ? '' : 's'} not yet sent`;
    case 'exit':
      return `${PREFIX} the client exited with code ${r.code} after ${r.resets} reset${r.resets === 1 ? '' : 's'}`;
  }
}

/** One report as a JSON line (`--json`): `{"supervise": <kind>, …fields}`. */
export function renderReportJson(r: SupervisorReport): string {
  const { kind, ...fields } = r;
  return JSON.stringify({ supervise: kind, ...fields });
}
