/** Jest runs TypeScript through ts-jest; type checking is `tsc --noEmit` in `npm test`, so ts-jest skips it. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  testTimeout: 30000,
  // Every run gets its own TMPDIR, and fails when a test leaves anything in it (test/support/temp-guard.js).
  globalSetup: '<rootDir>/test/support/temp-guard-setup.js',
  globalTeardown: '<rootDir>/test/support/temp-guard-teardown.js',
};
