import { analyseBashCommand } from '../../lib/transcript/bash-command';

describe('analyseBashCommand', () => {
  it.each([
    ['echo hi > out.txt', ['out.txt']],
    ['echo a>b; cat x | tee -a log.txt', ['b', 'log.txt']],
    ["sed -i 's/a/b/' src/x.ts", ['src/x.ts']],
    ['sed -n 1p src/x.ts', []],
    ['mv a.txt b.txt && cp -r d1 d2', ['b.txt', 'd2']],
    ['FOO=1 sudo touch f g', ['f', 'g']],
    ['ls 2> err.log', ['err.log']],
    ['echo failing >&2; exit 3', []],
    ['npm test 2>&1 > /dev/null', []],
    ['echo "a > b" \'c > d\'', []],
    ['cat >> notes.md', ['notes.md']],
  ])('finds the files %s writes', (command, written) => {
    expect(analyseBashCommand(command).written).toEqual(written);
  });

  it.each([
    ['git commit -m "x > y"', ['git commit -m "x > y"']],
    ['git -C repo push origin main', ['git -C repo push origin main']],
    ['git status && git log', []],
    ['npm test && git checkout -b feat', ['git checkout -b feat']],
    ['git merge main; git rebase main', ['git merge main', 'git rebase main']],
  ])('finds the git operations in %s', (command, git) => {
    expect(analyseBashCommand(command).git).toEqual(git);
  });

  it.each([
    ['mkdir -p sub && cd sub && pwd', ['cd sub']],
    ['export NODE_ENV=test', ['export NODE_ENV=test']],
    ['npm install left-pad', ['npm install left-pad']],
    ['pip install requests', ['pip install requests']],
    ['npm test', []],
  ])('finds the environment changes in %s', (command, environment) => {
    expect(analyseBashCommand(command).environment).toEqual(environment);
  });
});
