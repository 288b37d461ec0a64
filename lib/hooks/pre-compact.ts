import type { HookSpec } from './run-hook';

/** PreCompact: placeholder until its handler lands. */
export const preCompactHook: HookSpec<'PreCompact'> = {
  event: 'PreCompact',
  handle: async () => undefined,
};
