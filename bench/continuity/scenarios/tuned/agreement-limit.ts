import type { Scenario } from '../../scenario-types';

const UPLOAD = "// POST /avatar\nasync function uploadAvatar(req) {\n  return { status: 201, bytes: req.body.length };\n}\nmodule.exports = { uploadAvatar };\n";
const TYPED = "const ALLOWED = ['image/png', 'image/jpeg'];\n// POST /avatar: PNG or JPEG only.\nasync function uploadAvatar(req) {\n  if (!ALLOWED.includes(req.headers['content-type'])) return { status: 415 };\n  return { status: 201, bytes: req.body.length };\n}\nmodule.exports = { uploadAvatar };\n";
const LIMITED = TYPED.replace("  return { status: 201", "  if (req.body.length > 2 * 1024 * 1024) return { status: 413 };\n  return { status: 201");

/** An agreement with the agent's proposal ("Sure, 2 MB is fine.") is neither the task nor still waited on. */
export const agreementLimit: Scenario = {
  name: 'agreement-limit',
  covers: 'an agreement ("Sure, 2 MB is fine, go ahead.") to a proposal: not the objective, no longer waited on',
  live: true,
  repo: { 'src/api/avatar.js': UPLOAD },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Avatar uploads (src/api/avatar.js) accept any file. Only allow PNG and JPEG.',
          actions: [
            { tool: 'Read', path: 'src/api/avatar.js' },
            { tool: 'Write', path: 'src/api/avatar.js', content: TYPED },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'uploadAvatar answers 415 for anything but PNG and JPEG. There is no size limit either; I propose rejecting files over 2 MB with 413. Go ahead?' },
          ],
        },
        {
          prompt: 'Sure, 2 MB is fine, go ahead.',
          actions: [
            { tool: 'Write', path: 'src/api/avatar.js', content: LIMITED },
            { tool: 'Bash', command: 'npm test', description: 'Run the test suite' },
            { text: 'Uploads over 2 MB get 413 now. Next I will add tests for the 415 and the 413 in test/avatar.test.js.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: PNG/JPEG only avatars', in: ['objective'], pattern: 'avatar|PNG|JPEG' },
    { id: 'next step: the tests in avatar.test.js', in: ['next_valid_action'], pattern: 'avatar\\.test|415|413' },
    { id: 'the 2 MB limit done', in: ['done', 'facts'], pattern: '2 ?MB|413' },
    { id: 'avatar.js modified', in: ['files'], pattern: 'modified: .*src/api/avatar\\.js' },
  ],
  antiFacts: [
    { id: 'the agreement as objective', in: ['objective'], pattern: '^"?sure' },
    { id: 'the answered proposal still waited on', in: ['waiting_on'], pattern: 'go ahead|2 MB|propos' },
  ],
};
