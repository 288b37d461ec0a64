/**
 * Jest runs TypeScript through ts-jest; type checking is `tsc --noEmit` in `npm test`, so ts-jest
 * skips it. tsconfig's `isolatedModules` makes ts-jest transpile each file alone
 * (`ts.transpileModule`: no language service, no program): ~10-17 ms of CPU a file, and a fresh
 * clone (no jest cache) transforms ~1,600 (each lane's project caches its own, so a lib/ file that
 * four lanes reach is transformed four times): ~16-27 s of the suite's ~1,500 s of CPU, 1-2 %
 * (measured 2026-12-07). esbuild is ~6x faster but its CommonJS output copies a module's exports
 * into getters, which `jest.spyOn` on a module namespace (test/hooks/repository-reads.test.ts)
 * cannot replace. One project per lane (test/support/lanes.js says which file is in which); `npm test`
 * runs all four on both cores, `npm run test:<lane>` one (`--selectProjects`).
 */
const { LANES, lanes } = require('./test/support/lanes');

const files = lanes();
const project = (lane) => ({
  displayName: lane,
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testMatch: files[lane].length > 0 ? files[lane] : ['<rootDir>/test/no-such-lane/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  ...(lane === 'unit' ? { setupFilesAfterEnv: ['<rootDir>/test/support/unit-guard.js'] } : {}),
  // The real clients, pinned, installed once before any end-to-end file runs (test/e2e/support/install-clients.ts).
  ...(lane === 'e2e' ? { globalSetup: '<rootDir>/test/e2e/support/install-clients.ts' } : {}),
});

module.exports = {
  projects: LANES.map(project),
  testTimeout: 30000,
  // Two workers: the machines this runs on have two cores (CI too); JEST_WORKERS overrides.
  maxWorkers: Number(process.env.JEST_WORKERS) || 2,
  // The longest files first, also on a fresh clone with no jest cache (test/support/test-sequencer.js).
  testSequencer: '<rootDir>/test/support/test-sequencer.js',
  // Each lane's time and the slowest files, after every run (test/support/lane-times-reporter.js).
  reporters: ['default', '<rootDir>/test/support/lane-times-reporter.js'],
  // Every run gets its own TMPDIR, and fails when a test leaves anything in it (test/support/temp-guard.js).
  globalSetup: '<rootDir>/test/support/temp-guard-setup.js',
  globalTeardown: '<rootDir>/test/support/temp-guard-teardown.js',
};
