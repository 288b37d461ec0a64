import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { closest } from '../../lib/cli/did-you-mean';
import { HELP_WIDTH, VERB_GROUPS, renderHelp } from '../../lib/cli/help';
import { VERBS } from '../../lib/cli/verbs';
import { git, makeTempRepo, type TempRepo } from '../hooks/hook-fixtures';
import { runCli } from '../support/run-cli';

describe('usage errors', () => {
  let repo: TempRepo;
  const cli = (args: string[]) => runCli(args, { cwd: repo.dir, env: repo.env });
  beforeAll(() => (repo = makeTempRepo()));
  afterAll(() => repo.cleanup());

  it('a mistyped verb: exit 2 and the verb it was probably meant to be', async () => {
    const r = await cli(['lsit']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe("git capsule: 'lsit' is not a verb: did you mean 'list'? Run 'git capsule help' for the list.\n");
    expect((await cli(['frobnicate'])).stderr).toBe("git capsule: 'frobnicate' is not a verb. Run 'git capsule help' for the list.\n");
  });

  it("a mistyped flag: exit 2, our own words (never node's parser text), the flag it was probably meant to be, then the verb's usage", async () => {
    const r = await cli(['list', '--lmit', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("git capsule list: [USAGE] unknown option --lmit: did you mean --limit? See 'git capsule help list'.\n\nusage: git capsule list [--status S[,S…]] [-n | --limit N] [--json]\n");
    expect(r.stderr).not.toMatch(/Unknown option|positional argument|place it at the end|ERR_PARSE_ARGS/);
  });

  it.each([
    [['list', '--limit'], '--limit needs a value (--limit <value>)'],
    [['doctor', '--json=yes'], '--json takes no value'],
    [['doctor', 'now'], "unexpected argument 'now': this verb takes only options"],
    [['install', '--prject'], 'unknown option --prject: did you mean --project?'],
  ])('%j: exit 2 with the reason in one line and the usage', async (args, reason) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain(reason);
    expect(r.stderr).toContain(`\nusage: git capsule ${args[0]}`);
  });

  it('bare write is a usage error, not an invalid capsule (exit 2, nothing written)', async () => {
    const r = await cli(['write']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[USAGE] nothing to write');
    expect(git(repo.dir, 'for-each-ref', 'refs/heads/capsules')).toBe('');
  });

  it('--limit 0 is a usage error, not "no capsules"; -n is --limit', async () => {
    await cli(['write', '--objective', 'o', '--waiting-on', 'w', '--next', 'n']);
    await cli(['write', '--objective', 'p', '--waiting-on', 'w', '--next', 'n']);
    for (const verb of ['list', 'log']) {
      const zero = await cli([verb, '--limit', '0']);
      expect({ verb, code: zero.code, stdout: zero.stdout }).toEqual({ verb, code: 2, stdout: '' });
      expect(zero.stderr).toContain('--limit 0: give a whole number of 1 or more');
      expect(JSON.parse((await cli([verb, '-n', '1', '--json'])).stdout)).toHaveLength(1);
    }
  });

  it('--json errors are one JSON object on stdout with the stable code', async () => {
    const usage = await cli(['list', '--json', '--limit', '0']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toEqual({ error: { code: 'USAGE', message: expect.stringContaining('--limit 0'), verb: 'list', exit: 2 } });
    const failure = await cli(['show', 'no-such-id', '--json']);
    expect(failure.code).toBe(1);
    expect(JSON.parse(failure.stdout).error).toMatchObject({ code: expect.stringMatching(/^[A-Z_]+$/), verb: 'show', exit: 1 });
  });
});

describe('closest', () => {
  it.each([
    ['lsit', 'list'],
    ['staus', 'status'],
    ['sycn', 'sync'],
    ['doc', 'doctor'],
    ['xyz', null],
  ])('%s -> %s', (word, expected) => {
    expect(closest(word, Object.keys(VERBS))).toBe(expected);
  });
});

describe('the top-level help', () => {
  it('groups every verb by task, each once, within 100 columns', async () => {
    const text = await renderHelp();
    const grouped = VERB_GROUPS.flatMap((g) => g.verbs);
    expect([...grouped].sort()).toEqual(Object.keys(VERBS).sort());
    for (const g of VERB_GROUPS) expect(text).toContain(`\n\n${g.title}:\n`);
    for (const line of text.split("\n")) expect({ line, fits: line.length <= HELP_WIDTH }).toEqual({ line, fits: true });
    expect(text.indexOf('  install ')).toBeLessThan(text.indexOf('  budget '));
  });
});

describe("each verb's help", () => {
  it.each(Object.keys(VERBS).sort())('git capsule help %s fits in 100 columns', async (name) => {
    const r = await runCli(['help', name]);
    expect(r.code).toBe(0);
    for (const line of r.stdout.split('\n')) expect({ line, fits: line.length <= HELP_WIDTH }).toEqual({ line, fits: true });
  });

  it('keeps every word when it wraps (write had a 151-column line)', async () => {
    const verb = await VERBS.write!();
    const words = (t: string) => t.split(/\s+/).filter(Boolean);
    expect(words((await runCli(['help', 'write'])).stdout)).toEqual(words(`${verb.summary}\n\n${verb.usage}`));
  });
});

describe('git-hooks install where husky owns the hooks', () => {
  it('warns at install time and names how to chain the sync instead', async () => {
    const repo = makeTempRepo();
    try {
      mkdirSync(join(repo.dir, '.husky', '_'), { recursive: true });
      git(repo.dir, 'config', 'core.hooksPath', '.husky/_');
      const r = await runCli(['git-hooks', 'install'], { cwd: repo.dir, env: repo.env });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^warning: .*husky rewrites \.husky\/_ on every npm install.*\.husky\/pre-push/m);
      const json = await runCli(['git-hooks', 'status', '--json'], { cwd: repo.dir, env: repo.env });
      expect(JSON.parse(json.stdout).warnings).toBeUndefined();
      await runCli(['git-hooks', 'uninstall'], { cwd: repo.dir, env: repo.env });
      const again = await runCli(['git-hooks', 'install', '--json'], { cwd: repo.dir, env: repo.env });
      expect(JSON.parse(again.stdout).warnings).toEqual([expect.stringContaining('husky')]);
    } finally {
      repo.cleanup();
    }
  });

  it('says nothing in a plain repository', async () => {
    const repo = makeTempRepo();
    try {
      const r = await runCli(['git-hooks', 'install'], { cwd: repo.dir, env: repo.env });
      expect(r.stderr).toBe('');
    } finally {
      repo.cleanup();
    }
  });
});
