// The unit lane's promise, checked as it runs: a unit test starts no process. While a unit test
// file runs, every child_process function throws, and the file fails at its end if any was
// called (also when the code under test caught the throw, as a hook that fails open would).
const childProcess = require('node:child_process');

const NAMES = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];
const originals = {};
const calls = [];

beforeAll(() => {
  for (const name of NAMES) {
    originals[name] = childProcess[name];
    childProcess[name] = (command) => {
      calls.push(`${name}(${JSON.stringify(String(command))})`);
      throw new Error(`a unit test starts no process: ${name}(${command}); a test that must start one belongs to the git lane (test/support/lanes.js)`);
    };
  }
});

afterAll(() => {
  Object.assign(childProcess, originals);
  if (calls.length > 0) throw new Error(`this unit test file started processes: ${calls.slice(0, 3).join(', ')}; test/support/lanes.js puts a file that imports child_process in the git lane`);
});
