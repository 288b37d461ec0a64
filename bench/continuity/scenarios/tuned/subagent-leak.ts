import type { Scenario } from '../../scenario-types';

const REPORT =
  'Finding: the memory grows because src/session/store.js never deletes a session: logout in src/api/logout.js only clears the cookie, and expired sessions stay in the Map forever. About 2 KB per login is never freed.\n\nFiles: src/session/store.js (the Map), src/api/logout.js (the logout handler).';

/** A foreground subagent's report (the finding and its files) returns; the main session proposes a fix. */
export const subagentLeak: Scenario = {
  name: 'subagent-leak',
  covers: "a foreground Agent whose report names the cause and files: kept as facts, the row closed, its failed command its own",
  live: true,
  repo: { 'src/api/logout.js': "// POST /logout\nfunction logout(res) {\n  res.clearCookie('sid');\n}\nmodule.exports = { logout };\n" },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'The API process grows by about 100 MB a day. Have a look at what leaks, but do not change code yet.',
          actions: [
            {
              tool: 'Agent',
              description: 'Find the memory leak',
              prompt: 'Find what leaks memory in this API: it grows about 100 MB a day. Look at the session handling first. Report the cause and the files; change nothing.',
              actions: [
                { tool: 'Bash', command: "node -e \"require('heapdump').writeSnapshot()\"", description: 'Try a heap snapshot' },
                { tool: 'Read', path: 'src/session/store.js' },
                { tool: 'Read', path: 'src/api/logout.js' },
                { text: REPORT },
              ],
            },
            { text: 'Found: sessions are never deleted. Logout in src/api/logout.js only clears the cookie and src/session/store.js keeps every session in its Map. I suggest deleting the session on logout and sweeping expired ones every minute. Want me to do that?' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the memory growth', in: ['objective'], pattern: 'memory|leak|100 MB' },
    { id: 'the cause kept: sessions never deleted', in: ['facts', 'done', 'objective', 'waiting_on'], pattern: 'never delete|not deleted|never freed|logout' },
    { id: 'store.js named', in: ['facts', 'done', 'files'], pattern: 'src/session/store\\.js' },
    { id: 'waiting on the go-ahead', in: ['waiting_on'], pattern: 'user|approv|confirm|want me' },
  ],
  antiFacts: [
    { id: "the subagent's failed command as the session's error", in: ['errors'], pattern: 'heapdump|inspect' },
    { id: 'the finished subagent still claimed', in: ['claimed'], pattern: 'find the memory leak|subagent' },
  ],
};
