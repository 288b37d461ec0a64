import type { HookSpec } from './run-hook';

/** SessionEnd: placeholder until its handler lands. */
export const sessionEndHook: HookSpec<'SessionEnd'> = {
  event: 'SessionEnd',
  handle: async () => undefined,
};
