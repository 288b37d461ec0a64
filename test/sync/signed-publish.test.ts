import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';
import { capsuleText, git, makeTrio, REMOTE_REF, refOf, removeTrio, sync, testId, writeCapsules, type Trio } from './sync-trio';

// Issue 36 item 5: with a signing key configured, sync signs the commit it publishes, and show,
// list and the resume ledger print a teammate's capsule as verified (git's own allowed-signers
// check) or unverified.
// ssh-keygen comes with openssh-client (.ci/run installs it where it is missing).
const hasSshKeygen = spawnSync('ssh-keygen', ['-?'], { encoding: 'utf8' }).error === undefined;
const describeSsh = hasSshKeygen ? describe : describe.skip;

let trio: Trio;
let envB: NodeJS.ProcessEnv;
beforeEach(() => {
  trio = makeTrio();
  envB = { ...trio.env, CAPSULE_STATE_DIR: join(trio.root, 'state-b') };
});
afterEach(() => removeTrio(trio));

/** Gives clone b an ssh signing key; returns its allowed-signers line. */
function signWithSsh(): string {
  const key = join(trio.root, 'b-key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'b', '-f', key]);
  git(trio.b, ['config', 'gpg.format', 'ssh'], envB);
  git(trio.b, ['config', 'user.signingKey', `${key}.pub`], envB);
  return `b@example.com ${readFileSync(`${key}.pub`, 'utf8').trim()}\n`;
}

/** Clone a trusts `lines` as its allowed signers. */
function trust(lines: string): void {
  const file = join(trio.root, 'allowed-signers');
  execFileSync('sh', ['-c', `cat > ${JSON.stringify(file)}`], { input: lines });
  git(trio.a, ['config', 'gpg.ssh.allowedSignersFile', file], trio.env);
}

async function showJson(id: string): Promise<{ provenance: { sealedHere: boolean; signature: { verified: boolean; status: string; signer: string | null } | null } }> {
  const out = await runCli(['show', id, '--json'], { cwd: trio.a, env: trio.env });
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout);
}

type ListRow = { id: string; provenance: { sealedHere: boolean; signature: { verified: boolean; status: string; signer: string | null } | null } };

async function listA(): Promise<{ json: ListRow[]; words: Record<string, string> }> {
  const json = await runCli(['list', '--json'], { cwd: trio.a, env: trio.env });
  const text = await runCli(['list'], { cwd: trio.a, env: trio.env });
  expect([json.code, text.code]).toEqual([0, 0]);
  // The table's fourth column: sealed, verified or unverified.
  const words = Object.fromEntries(text.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/)).map((cells) => [cells[0], cells[3]]));
  return { json: JSON.parse(json.stdout), words };
}

/** Clone a's resume (not consumed): b's capsule is another machine's, named in the ledger. */
async function ledgerA(): Promise<string> {
  const out = await runCli(['resume', '--no-consume'], { cwd: trio.a, env: trio.env, now: new Date('2026-11-29T21:10:00Z') });
  expect(out.code).toBe(0);
  return out.stdout;
}

describeSsh('signed publishes (ssh signing)', () => {
  it("signs b's publish commit, and a shows b's capsule as verified against its allowed signers", async () => {
    trust(signWithSsh());
    await writeCapsules(trio.b, envB, [capsuleText(1)]);
    await sync(trio.b, envB);
    const published = refOf(trio.remote, trio.env, REMOTE_REF)!;
    expect(git(trio.remote, ['cat-file', '-p', published], trio.env)).toContain('-----BEGIN SSH SIGNATURE-----');
    await sync(trio.a, trio.env);

    expect((await showJson(testId(1))).provenance).toMatchObject({ sealedHere: false, signature: { verified: true, status: 'G', signer: 'b@example.com' } });
    const text = await runCli(['show', testId(1)], { cwd: trio.a, env: trio.env });
    expect(text.stdout).toContain('# signature: verified (git verify-commit: signed by "b@example.com"');
  });

  it("lists b's signed capsule as verified and a's own as sealed, and the resume ledger says verified with the signer", async () => {
    trust(signWithSsh());
    await writeCapsules(trio.b, envB, [capsuleText(1)]);
    await sync(trio.b, envB);
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    await sync(trio.a, trio.env);

    const { json, words } = await listA();
    expect(json.find((r) => r.id === testId(1))!.provenance).toMatchObject({ sealedHere: false, signature: { verified: true, status: 'G', signer: 'b@example.com' } });
    expect(json.find((r) => r.id === testId(2))!.provenance).toEqual({ sealedHere: true, signature: null });
    expect(words).toEqual({ [testId(1)]: 'verified', [testId(2)]: 'sealed' });
    expect(await ledgerA()).toMatch(/1x other-author \(written by "b@example\.com, synced from machine m-[0-9A-Z]{26}"\), signature verified \(signed by "b@example\.com"\)/);
  });

  it("lists and ledgers an unsigned teammate's capsule, and one signed by a key a does not trust, as unverified", async () => {
    trust('someone@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHh0dHBzOi8vZXhhbXBsZS5jb20vbm90LWEta2V5\n');
    await writeCapsules(trio.b, envB, [capsuleText(1)]);
    await sync(trio.b, envB);
    await sync(trio.a, trio.env);
    expect((await listA()).words).toEqual({ [testId(1)]: 'unverified' });
    expect(await ledgerA()).toMatch(/1x other-author \(written by "b@example\.com[^\n]*\), signature unverified \(not signed\)/);

    signWithSsh();
    await writeCapsules(trio.b, envB, [capsuleText(2, { created_at: '2026-11-29T20:05:00Z' })]);
    await sync(trio.b, envB);
    await sync(trio.a, trio.env);
    const { json, words } = await listA();
    expect(json.find((r) => r.id === testId(2))!.provenance.signature).toMatchObject({ verified: false });
    expect(words[testId(2)]).toBe('unverified');
    expect(await ledgerA()).not.toContain('signature verified');
  });

  it('never runs a signature program the repository config names (pinned to git\'s defaults)', async () => {
    trust(signWithSsh());
    await writeCapsules(trio.b, envB, [capsuleText(1)]);
    await sync(trio.b, envB);
    await sync(trio.a, trio.env);
    const ran = join(trio.root, 'ran');
    const program = join(trio.root, 'fake-ssh-keygen');
    execFileSync('sh', ['-c', `printf '#!/bin/sh\\necho ran > ${ran}\\nexit 1\\n' > ${program} && chmod +x ${program}`]);
    git(trio.a, ['config', 'gpg.ssh.program', program], trio.env);
    expect((await showJson(testId(1))).provenance.signature).toMatchObject({ verified: true });
    expect((await listA()).words[testId(1)]).toBe('verified');
    await ledgerA();
    expect(existsSync(ran)).toBe(false);
  });

  it("shows an unsigned teammate's capsule as unverified, and one signed by a key it does not trust as unverified", async () => {
    trust('someone@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHh0dHBzOi8vZXhhbXBsZS5jb20vbm90LWEta2V5\n');
    await writeCapsules(trio.b, envB, [capsuleText(1)]);
    await sync(trio.b, envB);
    await sync(trio.a, trio.env);
    expect((await showJson(testId(1))).provenance).toMatchObject({ sealedHere: false, signature: { verified: false, status: 'N' } });
    expect((await runCli(['show', testId(1)], { cwd: trio.a, env: trio.env })).stdout).toContain('# signature: unverified (not signed');

    signWithSsh();
    await writeCapsules(trio.b, envB, [capsuleText(2)]);
    await sync(trio.b, envB);
    await sync(trio.a, trio.env);
    expect((await showJson(testId(2))).provenance.signature).toMatchObject({ verified: false });
  });

  it('shows a capsule this clone wrote as sealed by this clone', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]);
    expect((await showJson(testId(3))).provenance).toEqual({ sealedHere: true, signature: null });
  });
});

it('finds ssh-keygen on this machine (CI installs openssh-client)', () => {
  expect(hasSshKeygen || process.env.CI === undefined).toBe(true);
});
