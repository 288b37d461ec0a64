/**
 * Compiles each regular expression straight to machine code on its first use, instead of V8's
 * default of bytecode first and machine code on the second use. A hook is a short process that
 * runs each of its patterns a few times: the work-state readers' word lists (a hundred verbs
 * under `/i`) cost ~35 ms of CPU per Stop to compile twice, ~14 ms compiled once (measured on
 * one bench turn, node 20). The hook launcher calls it for Stop, before the bundle's first
 * pattern runs (flags are read at compile time): loading `node:v8` costs ~2–4 ms (it loads the
 * stream modules early, and its own), more than the other hooks' patterns gain (measured:
 * SessionStart, PreCompact, UserPromptSubmit read no new turn). A V8 that does not know the flag ignores it.
 */
export function compileRegExpsOnce(): void {
  try {
    // Loaded here, not at the top: only the hooks that call this pay for node:v8.
    (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--no-regexp-tier-up');
  } catch {
    // Only speed depends on it.
  }
}
