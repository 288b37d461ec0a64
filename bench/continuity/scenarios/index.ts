import type { Scenario } from '../scenario-types';
import { HELD_OUT } from './held-out/index';
import { HELD_OUT_2 } from './held-out-2/index';
import { TUNED } from './tuned/index';

export { HELD_OUT, HELD_OUT_2, TUNED };

/** The sets of the benchmark by name, as `--set` takes them: the tuned half and the two held-out ones. */
export const SETS: Readonly<Record<'tuned' | 'held-out' | 'held-out-2', readonly Scenario[]>> = { tuned: TUNED, 'held-out': HELD_OUT, 'held-out-2': HELD_OUT_2 };

/** Every scenario of the continuity benchmark, in report order: the tuned half, then each held-out set. */
export const SCENARIOS: readonly Scenario[] = [...TUNED, ...HELD_OUT, ...HELD_OUT_2];
