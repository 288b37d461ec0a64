/** Jest runs TypeScript through ts-jest; type checking is `tsc --noEmit` in `npm test`, so ts-jest skips it. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  testTimeout: 30000,
};
