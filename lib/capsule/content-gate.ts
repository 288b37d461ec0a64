import type { Problem } from './types';

interface GatePattern {
  name: string;
  pattern: RegExp;
  /**
   * Every match starts with one of these (lower-cased): the pattern is compiled on its first
   * use, 0.1–0.4 ms apiece in a hook's process, so a text starting otherwise never runs it.
   * The patterns are case-insensitive over ASCII letters only (no `u` flag), so a text they match
   * starts with a prefix here whatever its case.
   */
  starts: readonly string[];
}

/**
 * Harness and supervisor text that is not an operator's objective. Start-anchored: the same
 * words mid-sentence ("On resume: comply with the supervisor-resume instruction, then…") pass.
 */
export const OBJECTIVE_GATE: readonly GatePattern[] = [
  { name: 'supervisor-resume', pattern: /^\[supervisor[-_ ]?resume\]/i, starts: ['[supervisor'] },
  // What `git capsule supervise` itself sends (its capsule request) is not the operator's either.
  { name: 'git-capsule-supervise', pattern: /^\[git-capsule supervise\]/i, starts: ['[git-capsule supervise]'] },
  { name: 'refresh-cycle', pattern: /^\[refresh[-_ ]?cycle\]/i, starts: ['[refresh'] },
  { name: 'auto-pull', pattern: /^\[auto[-_ ]?pull\]/i, starts: ['[auto'] },
  { name: 'inbox-marker', pattern: /^(?:\[(?:inbox|new[-_ ]message|unread)\b[^\]]*\]|<inbox\b|inbox\s*[:>]|📥|📬)/i, starts: ['[inbox', '[new', '[unread', '<inbox', 'inbox', '\u{1f4e5}', '\u{1f4ec}'] },
  { name: 'loop-tick-banner', pattern: /^(?:\[(?:loop[-_ ]?tick|tick)\b[^\]]*\]|(?:[=#*-]{2,}\s*)?loop[-_ ]tick\b)/i, starts: ['[loop', '[tick', 'loop', '=', '#', '*', '-'] },
  { name: 'system-reminder', pattern: /^<system-reminder>/i, starts: ['<system-reminder>'] },
  { name: 'hook-output', pattern: /^(?:SessionStart|UserPromptSubmit|Stop|PreCompact)(?::\w+)? hook (?:success|additional context)\b/i, starts: ['sessionstart', 'userpromptsubmit', 'stop', 'precompact'] },
];

/** Resume ceremony that tells a fresh session nothing it can act on. Start-anchored too. */
export const NEXT_ACTION_GATE: readonly GatePattern[] = [
  { name: 're-read-turn-state', pattern: /^re-?read (?:the )?(?:active|current) turn state/i, starts: ['reread ', 're-read '] },
  { name: 'run-resume-procedure', pattern: /^(?:run|follow|execute|perform) (?:the )?(?:\/?resume|resume[-_ ]verb) (?:procedure|ceremony|steps|protocol)/i, starts: ['run ', 'follow ', 'execute ', 'perform '] },
  { name: 'load-capsule', pattern: /^(?:re-?)?(?:load|read|open) (?:the )?(?:newest |latest |last )?(?:active )?capsule\b/i, starts: ['load ', 'read ', 'open ', 're'] },
  { name: 'resume-command', pattern: /^\/resume\b/i, starts: ['/resume'] },
  { name: 'acknowledge-resume', pattern: /^(?:ack|acknowledge) (?:the )?resume\b/i, starts: ['ack'] },
  { name: 're-ground-ceremony', pattern: /^re-?ground (?:against )?(?:live )?(?:memory|state)\s*(?:[.;:]|$)/i, starts: ['reground ', 're-ground '] },
];

/**
 * Checks the content gate on the two fields it covers and returns one problem per hit
 * (CONTENT_GATE_OBJECTIVE, CONTENT_GATE_NEXT_ACTION) naming the matched pattern in `message`.
 */
export function checkContentGate(fields: { objective?: unknown; next_valid_action?: unknown }): Problem[] {
  const problems: Problem[] = [];
  const objectiveHit = firstHit(fields.objective, OBJECTIVE_GATE);
  if (objectiveHit) {
    problems.push({
      code: 'CONTENT_GATE_OBJECTIVE',
      field: 'objective',
      message: `objective starts with harness text (${objectiveHit}); write the operator's real objective`,
    });
  }
  const actionHit = firstHit(fields.next_valid_action, NEXT_ACTION_GATE);
  if (actionHit) {
    problems.push({
      code: 'CONTENT_GATE_NEXT_ACTION',
      field: 'next_valid_action',
      message: `next_valid_action starts with resume ceremony (${actionHit}); write the concrete next step`,
    });
  }
  return problems;
}

function firstHit(value: unknown, patterns: readonly GatePattern[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Leading whitespace, quote marks and markdown emphasis do not hide a marker (a text that
  // starts with any other printable ASCII character has none of them to strip).
  const c = value.charCodeAt(0);
  const head = c > 0x20 && c < 0x7f && !'"\'`*_>'.includes(value[0]!) ? value : value.replace(/^[\s"'`*_>]+/, '');
  const lower = head.slice(0, 24).toLowerCase();
  return patterns.find((p) => p.starts.some((s) => lower.startsWith(s)) && p.pattern.test(head))?.name;
}
