import { redactCapsuleText } from '../../lib/store/redact-capsule';
import { openTempStore } from './support/open-temp-store';
import { capsuleText, git, testId } from './support/temp-repo';

const NOW = new Date('2026-11-29T21:00:00Z');
const GITHUB = `ghp_${'Ab3'.repeat(12)}`;
const ANTHROPIC = `sk-ant-api03-${'x9Y_'.repeat(24)}AA`;

describe('redactCapsuleText', () => {
  it('returns a text without secrets byte for byte', () => {
    const text = capsuleText({ id: testId(1) });
    expect(redactCapsuleText(text)).toEqual({ text, findings: [] });
  });

  it("writes every user's home folder as ~, and keeps the capsule valid when a field is nothing but one", () => {
    const { text, findings } = redactCapsuleText(capsuleText({ id: testId(1), objective: 'Fix /home/alice/proj/src/a.ts:12 (see /Users/alice/Library/Logs/x.log)', waiting_on: '/home/alice', next_valid_action: 'run C:\\Users\\alice\\proj\\build.cmd' }));
    expect(text).toContain('objective: Fix ~/proj/src/a.ts:12 (see ~/Library/Logs/x.log)');
    expect(text).toMatch(/^waiting_on: "~"$/m);
    expect(text).toContain('run ~\\proj\\build.cmd');
    expect(text).not.toMatch(/alice/);
    // A folder is not a secret: nothing is reported as redacted for it.
    expect(findings).toEqual([]);
  });

  it('keeps a capsule valid when a field is nothing but a secret', () => {
    const { text, findings } = redactCapsuleText(capsuleText({ id: testId(1), objective: ANTHROPIC }));
    expect(text).toContain('objective: "[REDACTED:anthropic-key]"');
    expect(findings).toEqual([{ kind: 'anthropic-key', count: 1 }]);
  });
});

describe('writeCapsule', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => (t = await openTempStore()));
  afterEach(() => t.done());

  it('redacts secrets before the blob, the index and the commit message are built', async () => {
    const text = capsuleText({ id: testId(1), objective: `Rotate ${GITHUB} today`, next_valid_action: `export TOKEN=${GITHUB}` });
    const result = await t.store.writeCapsule(text, { now: NOW });
    const everything = git(t.dir, ['log', '-p', '--format=%B', 'capsules'], t.env) + git(t.dir, ['show', `capsules:${result.path}`], t.env);
    expect(everything).not.toContain(GITHUB);
    expect(everything).toContain('[REDACTED:github-token]');
    expect(git(t.dir, ['log', '-1', '--format=%s', 'capsules'], t.env)).toBe(`write ${testId(1)}: Rotate [REDACTED:github-token] today`);
  });

  it("leaves no user's home folder in any object of the memory branch (blob, index, commit message)", async () => {
    const text = capsuleText({ id: testId(4), objective: 'Fix the crash at /home/alice/work/app/src/main.ts:40', next_valid_action: 'rerun /Users/alice/bin/deploy.sh' });
    await t.store.writeCapsule(text, { now: NOW });
    const ids = git(t.dir, ['rev-list', '--objects', '--all'], t.env).split('\n').map((l) => l.split(' ')[0] ?? '').filter(Boolean);
    const objects = ids.map((id) => git(t.dir, ['cat-file', '-p', id], t.env)).join('\n');
    expect(objects).not.toMatch(/\/(?:home|Users)\/alice/);
    expect(objects).toContain('~/work/app/src/main.ts:40');
  });

  it('names what it redacted in its result, so callers report it without redacting again', async () => {
    const result = await t.store.writeCapsule(capsuleText({ id: testId(3), objective: `Rotate ${GITHUB}`, next_valid_action: `use ${GITHUB}` }), { now: NOW });
    expect(result.redactions).toEqual([{ kind: 'github-token', count: 2 }]);
    const again = await t.store.writeCapsule(capsuleText({ id: testId(3), objective: `Rotate ${GITHUB}`, next_valid_action: `use ${GITHUB}` }), { now: NOW, replace: true });
    expect(again).toMatchObject({ changed: false, redactions: [{ kind: 'github-token', count: 2 }] });
  });

  it('writes a capsule whose objective is nothing but a secret, redacted', async () => {
    const result = await t.store.writeCapsule(capsuleText({ id: testId(2), objective: ANTHROPIC }), { now: NOW });
    expect(git(t.dir, ['show', `capsules:${result.path}`], t.env)).toContain('[REDACTED:anthropic-key]');
  });

  it('commits nothing when an autosave rewrites the same secret again', async () => {
    const text = capsuleText({ id: testId(3), objective: `Use ${GITHUB}` });
    await t.store.writeCapsule(text, { now: NOW });
    expect((await t.store.writeCapsule(text, { now: NOW, replace: true })).changed).toBe(false);
  });
});
