import { formatTokens } from '../budget/token-count';
import { CAPSULE_LITERAL } from './capsule-literal';

/**
 * The default continuation after `/clear`. It opens with `[supervisor-resume]` on purpose: the
 * content gate knows that marker, so the fresh window's autosave never takes this text for the
 * operator's objective (lib/capsule/content-gate.ts).
 */
export const DEFAULT_CONTINUATION =
  '[supervisor-resume] The context was cleared at the budget point by git capsule supervise. The resume above hands back the work state: follow its procedure, then go on with the work from its next action.';

/**
 * What the supervisor sends when the reset point is reached and no capsule request reached the
 * agent in that turn (its own reset point, or no block from the hook): the same request as the
 * hook's block, except that the supervisor runs `/clear` itself. Only numbers are interpolated.
 */
export function renderCapsuleRequest(fill: number, point: number, pointName: string): string {
  return [
    `[git-capsule supervise] The context holds about ${formatTokens(fill)} tokens: past the ${pointName} ${formatTokens(point)}.`,
    `Write the capsule now with the context-capsule skill, before anything else, and end your reply with the line \`${CAPSULE_LITERAL} <id>\`.`,
    'The supervisor then runs /clear, and the capsule is handed back in the fresh window. Start no new work in this window.',
  ].join('\n');
}
