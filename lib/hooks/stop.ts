import type { HookSpec } from './run-hook';

/** Stop: placeholder until its handler lands. */
export const stopHook: HookSpec<'Stop'> = {
  event: 'Stop',
  handle: async () => undefined,
};
