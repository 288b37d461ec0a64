import type { Verb } from './context';

/**
 * The verb table. Each entry loads its module lazily so a hook that calls one verb does not
 * initialise the others. Add a verb: a file under `verbs/` exporting `verb`, and a line here.
 */
export const VERBS: Record<string, () => Promise<Verb>> = {
  history: async () => (await import('./verbs/history')).verb,
  validate: async () => (await import('./verbs/validate')).verb,
  budget: async () => (await import('./verbs/budget')).verb,
  statusline: async () => (await import('./verbs/statusline')).verb,
};
