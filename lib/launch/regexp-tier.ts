import { setFlagsFromString } from 'node:v8';

/**
 * Compiles each regular expression straight to machine code on its first use, instead of V8's
 * default of bytecode first and machine code on the second use. A hook is a short process that
 * runs each of its patterns a few times: the work-state readers' word lists (a hundred verbs
 * under `/i`) cost ~35 ms of CPU per Stop to compile twice, ~14 ms compiled once (measured on
 * one bench turn, node 20). The hook launchers call it before the bundle's first pattern runs (flags read at
 * compile time); UserPromptSubmit does not: loading `node:v8` there costs more (~4 ms, it pulls
 * in the stream modules the other hooks load anyway) than its few patterns gain. A V8 that does
 * not know the flag ignores it.
 */
export function compileRegExpsOnce(): void {
  try {
    setFlagsFromString('--no-regexp-tier-up');
  } catch {
    // Only speed depends on it.
  }
}
