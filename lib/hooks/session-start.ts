import type { HookSpec } from './run-hook';

/** SessionStart: placeholder until its handler lands. */
export const sessionStartHook: HookSpec<'SessionStart'> = {
  event: 'SessionStart',
  handle: async () => undefined,
};
