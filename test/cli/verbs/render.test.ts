import { ulid } from '../../support/capsule-doc';
import { runCli } from '../../support/run-cli';
import { makeTestRepo, type TestRepo } from '../../resume-runtime/repo';

describe('git capsule render', () => {
  let repo: TestRepo;
  beforeEach(() => {
    repo = makeTestRepo();
  });
  afterEach(() => repo.cleanup());
  const ext = (decl: unknown) => repo.write('.capsule/lifecycle-extension.json', typeof decl === 'string' ? decl : JSON.stringify(decl));

  it('prints capsule_ack with the id substituted', async () => {
    ext({ schema: 'LifecycleExtension/v1', capsule_ack: 'PROTO capsule-written {capsule_id}' });
    expect(await runCli(['render', 'capsule_ack', '--capsule-id', ulid(7)], { cwd: repo.dir, env: repo.env })).toEqual({ code: 0, stdout: `PROTO capsule-written ${ulid(7)}\n`, stderr: '' });
  });

  it('prints nothing when nothing is declared', async () => {
    expect(await runCli(['render', 'capsule_ack', '--capsule-id', ulid(7)], { cwd: repo.dir, env: repo.env })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('refuses an invalid declaration on stderr with the same line as resume, and exits 0', async () => {
    const path = ext({ schema: 'LifecycleExtension/v1', capsule_ack: 'a\nb' });
    const r = await runCli(['render', 'capsule_ack', '--capsule-id', ulid(7)], { cwd: repo.dir, env: repo.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`LIFECYCLE-EXTENSION: declaration ignored: "${path}": capsule_ack holds a line-breaking character; a declared line is one line\n`);
  });

  it('says not rendered on stderr when the template needs an id and none was given', async () => {
    ext({ schema: 'LifecycleExtension/v1', capsule_ack: 'PROTO {capsule_id}' });
    const r = await runCli(['render', 'capsule_ack'], { cwd: repo.dir, env: repo.env });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(/^LIFECYCLE-EXTENSION: capsule_ack not rendered: /);
  });

  it.each([[['render']], [['render', 'nonsense']], [['render', 'capsule_ack', '--bogus']]])('exits 0 even on bad arguments %j', async (args) => {
    const r = await runCli(args, { cwd: repo.dir, env: repo.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^LIFECYCLE-EXTENSION: /);
  });

  it('reads the declaration of --root', async () => {
    ext({ schema: 'LifecycleExtension/v1', capsule_ack: 'PROTO ok' });
    expect((await runCli(['render', 'capsule_ack', '--root', repo.dir], { cwd: repo.stateDir.replace(/state$/, ''), env: repo.env })).stdout).toBe('PROTO ok\n');
  });
});
