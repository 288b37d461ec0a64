// Jest's TypeScript transform: esbuild strips the types of one file at a time. Type checking is
// `tsc --noEmit` in `npm test`, and tsconfig.json already holds every file to `isolatedModules`
// (nothing may need another file's types to compile), so a per-file transpiler emits what tsc
// would. esbuild does it in a few milliseconds where ts-jest loads the TypeScript compiler in
// every worker; on a fresh clone (no jest cache) that load and the transpiling were a large part
// of the unit lane's time.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const esbuild = require('esbuild');

const TSCONFIG = JSON.parse(readFileSync(join(__dirname, '..', '..', 'tsconfig.json'), 'utf8'));
// esbuild reads the options that change emitted code (target, useDefineForClassFields, ...).
const TSCONFIG_RAW = { compilerOptions: TSCONFIG.compilerOptions };
const VERSION = createHash('sha256')
  .update(esbuild.version)
  .update(readFileSync(__filename))
  .update(JSON.stringify(TSCONFIG_RAW))
  .digest('hex');

module.exports = {
  getCacheKey(sourceText, sourcePath) {
    return createHash('sha256').update(VERSION).update('\0').update(sourcePath).update('\0').update(sourceText).digest('hex');
  },
  process(sourceText, sourcePath) {
    const out = esbuild.transformSync(sourceText, {
      loader: 'ts',
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // jest runs CommonJS: a dynamic import() becomes a require, as tsc's `module: commonjs` emits it.
      supported: { 'dynamic-import': false },
      sourcefile: sourcePath,
      sourcemap: 'external',
      sourcesContent: false,
      tsconfigRaw: TSCONFIG_RAW,
    });
    return { code: out.code, map: out.map };
  },
};
