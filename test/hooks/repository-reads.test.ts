import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as gitDirWalk from '../../lib/git/git-dir-walk';
import { gitOnPath } from '../../lib/git/config-sources';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { makeSessionStartHook } from '../../lib/hooks/session-start';
import { makeStopHook } from '../../lib/hooks/stop';
import { runCli } from '../support/run-cli';
import { tempDir } from '../support/temp-dirs';
import { makeTempRepo, runHookIn, turnRecords, type TempRepo } from './hook-fixtures';

const NOW = new Date('2026-11-29T21:00:00Z');

/**
 * A `git` first on PATH that logs each process's arguments, one line each, and runs the real git:
 * the processes a hook starts, counted from outside it.
 */
function loggingGit(): { bin: string; started: () => string[] } {
  const bin = tempDir('capsule-git-log-');
  const log = join(bin, 'argv.log');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(gitOnPath(process.env))} "$@"\n`, { mode: 0o755 });
  writeFileSync(log, '');
  return {
    bin,
    // A detached `gc --auto` is housekeeping, not the hook's work.
    started: () => readFileSync(log, 'utf8').split('\n').filter((l) => l !== '' && !/(^| )gc( |$)/.test(l)),
  };
}

/** The command of a logged git: its first word after the `-c` settings. */
const command = (argv: string) => argv.replace(/^(-c \S+ )*/, '').split(' ')[0];

describe('one read of the repository per hook run', () => {
  let repo: TempRepo;
  let git: ReturnType<typeof loggingGit>;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    repo = makeTempRepo();
    git = loggingGit();
    env = { ...repo.env, PATH: `${git.bin}:${repo.env.PATH}` };
  });
  afterEach(() => {
    jest.restoreAllMocks();
    repo.cleanup();
  });

  const stop = async (n: number, extraEnv: NodeJS.ProcessEnv = {}) => {
    const transcript = join(repo.dir, '..', 't.jsonl');
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n, prompt: `build the widget, part ${n}`, write: `${repo.dir}/w${n}.ts` }));
    return runHookIn({ ...repo, env: { ...env, ...extraEnv } }, makeStopHook(defaultDeps), { transcript_path: transcript }, NOW);
  };

  it('a Stop reads the git config once: with the cache off, one git config among the processes it starts', async () => {
    await stop(1, { CAPSULE_CONFIG_CACHE: '0' });
    const started = git.started().map(command);
    expect(started).toContain('fast-import');
    expect(started.filter((c) => c === 'config')).toEqual(['config']);
  });

  it('a SessionStart(clear) reads the git config once: the budget and the resume share it', async () => {
    await stop(1);
    writeFileSync(join(git.bin, 'argv.log'), '');
    const out = await runHookIn({ ...repo, env: { ...env, CAPSULE_CONFIG_CACHE: '0' } }, makeSessionStartHook(defaultDeps), { source: 'clear' }, NOW);
    expect(JSON.parse(out.stdout).hookSpecificOutput.additionalContext).toContain('build the widget');
    const started = git.started().map(command);
    expect(started).toContain('fast-import');
    expect(started.filter((c) => c === 'config')).toEqual(['config']);
  });

  it('a Stop locates the repository once', async () => {
    const walk = jest.spyOn(gitDirWalk, 'walkToGitDir');
    await stop(1);
    expect(walk).toHaveBeenCalledTimes(1);
  });

  it('after a capsule written from a shell in a subfolder, with a PATH of its own, SessionStart(clear) starts only cat-file and fast-import', async () => {
    const shellBin = tempDir('capsule-shell-bin-');
    mkdirSync(join(repo.dir, 'src'));
    const shell = { ...env, PATH: `${shellBin}:${env.PATH}` };
    const wrote = await runCli(['write', '--objective', 'ship the widget', '--waiting-on', 'nothing', '--next', 'run its tests'], { cwd: join(repo.dir, 'src'), env: shell, now: NOW });
    expect(wrote.code).toBe(0);
    writeFileSync(join(git.bin, 'argv.log'), '');
    const out = await runHookIn({ ...repo, env }, makeSessionStartHook(defaultDeps), { source: 'clear' }, NOW);
    expect(JSON.parse(out.stdout).hookSpecificOutput.additionalContext).toContain('ship the widget');
    expect(git.started().map(command)).toEqual(['cat-file', 'fast-import']);
  });
});
