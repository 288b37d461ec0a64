/**
 * Whether a built hook's run failed open on its own time budget (`[HOOK_TIMEOUT]`, exit 0). Such a
 * run is what a loaded machine gives (SessionEnd has 1 s from its process start), not what the
 * test is about; the session's next event would run the hook again, so the tests that run built
 * hooks run it again once. A second timeout, or any other message, still fails.
 */
export function hookTimedOut(code: number | null, stdout: string): boolean {
  return code === 0 && stdout.includes('[HOOK_TIMEOUT]');
}
