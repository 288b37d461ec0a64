import type { Verb } from './context';

/**
 * The verb table. Each entry loads its module lazily so a hook that calls one verb does not
 * initialise the others. Add a verb: a file under `verbs/` exporting `verb`, and a line here.
 */
export const VERBS: Record<string, () => Promise<Verb>> = {
  history: async () => (await import('./verbs/history')).verb,
  validate: async () => (await import('./verbs/validate')).verb,
  install: async () => (await import('./verbs/install')).verb,
  uninstall: async () => (await import('./verbs/uninstall')).verb,
  doctor: async () => (await import('./verbs/doctor')).verb,
  resume: async () => (await import('./verbs/resume')).verb,
  render: async () => (await import('./verbs/render')).verb,
  init: async () => (await import('./verbs/init')).verb,
  write: async () => (await import('./verbs/write')).verb,
  list: async () => (await import('./verbs/list')).verb,
  show: async () => (await import('./verbs/show')).verb,
  log: async () => (await import('./verbs/log')).verb,
  status: async () => (await import('./verbs/status')).verb,
  reindex: async () => (await import('./verbs/reindex')).verb,
  sync: async () => (await import('./verbs/sync')).verb,
  compact: async () => (await import('./verbs/compact')).verb,
  'git-hooks': async () => (await import('./verbs/git-hooks')).verb,
  budget: async () => (await import('./verbs/budget')).verb,
  statusline: async () => (await import('./verbs/statusline')).verb,
  supervise: async () => (await import('./verbs/supervise')).verb,
};
