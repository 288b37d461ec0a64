/**
 * A suite that needs something outside the repository (the real client, the harness, man):
 * where it is missing, the suite is skipped with its reason on stderr, and with CI=true the
 * run fails with that one-line reason instead, so CI never passes by skipping quietly.
 */
export function describeIfAvailable(what: string, missing: string | null): jest.Describe {
  if (missing === null) return describe;
  const reason = `${what} cannot run: ${missing}`;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    return ((name: string) =>
      describe(name, () => {
        it(`needs ${what} (CI=true turns a skip into a failure)`, () => {
          throw new Error(reason);
        });
      })) as unknown as jest.Describe;
  }
  process.stderr.write(`skipped: ${reason}\n`);
  return describe.skip;
}
