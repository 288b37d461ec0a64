import type { Scenario } from '../scenario-types';
import { HELD_OUT } from './held-out/index';
import { TUNED } from './tuned/index';

export { HELD_OUT, TUNED };

/** The halves of the benchmark by name, as `--set` takes them. */
export const SETS: Readonly<Record<'tuned' | 'held-out', readonly Scenario[]>> = { tuned: TUNED, 'held-out': HELD_OUT };

/** Every scenario of the continuity benchmark, in report order: the tuned half, then the held-out half. */
export const SCENARIOS: readonly Scenario[] = [...TUNED, ...HELD_OUT];
