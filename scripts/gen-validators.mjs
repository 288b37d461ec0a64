// Compiles each JSON schema to standalone validation code with ajv, so no hook pays ajv's
// require + compile cost at run time (measured: ~55 ms require + ~100 ms compile per process,
// against ~1 ms to load the generated code). Run by `npm run build`; the output is committed and
// test/capsule/generated-validators.test.ts fails when it is stale.
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { readFileSync, writeFileSync } from 'node:fs';

export const VALIDATORS = [
  { schema: 'schemas/capsule.schema.json', out: 'lib/capsule/generated/capsule-schema.js', name: 'validateCapsuleSchema' },
  { schema: 'schemas/config.schema.json', out: 'lib/budget/generated/config-schema.js', name: 'validateConfigSchema' },
];

export function generate(entry) {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, code: { source: true, esm: false } });
  const validate = ajv.compile(JSON.parse(readFileSync(entry.schema, 'utf8')));
  return `// Generated from ${entry.schema} by scripts/gen-validators.mjs. Do not edit.\n${standaloneCode.default(ajv, validate)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const entry of VALIDATORS) writeFileSync(entry.out, generate(entry));
}
