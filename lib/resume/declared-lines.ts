import { foldDeclaredLine } from '../capsule/inert';

/** Prefix of the n-th (1-based) PRE-LOAD line, rendered right after the STEPS heading, before step 1. */
export function preloadPrefix(n: number): string {
  return `0.${n} PRE-LOAD (declared by this install, runs BEFORE step 1): `;
}

/** Prefix of the n-th (1-based) RE-GROUND line, rendered right after core step 2, before step 3. */
export function regroundPrefix(n: number): string {
  return `2.${n} RE-GROUND (declared by this install, runs INSIDE step 2, before step 3): `;
}

/** Prefix of the declared resume acknowledgement, step 5, after the core acknowledgement. */
export const RESUME_ACK_PREFIX = '5. ACK (declared by this install, runs after step 4): ';

/** The placeholder an ack may carry once; a procedure line may not carry it at all. */
export const CAPSULE_ID_PLACEHOLDER = '{capsule_id}';

/**
 * Renders one declared line: the install asked for it verbatim, so it is never quoted the way
 * inert() quotes data, but every line-breaking and control character still folds to a space.
 */
export function renderDeclaredLine(prefix: string, line: string): string {
  return prefix + foldDeclaredLine(line);
}
