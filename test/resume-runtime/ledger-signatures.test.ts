import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noteSignatures } from '../../lib/resume-runtime/select-from-store';
import type { Rejection } from '../../lib/select/types';
import { openStore } from '../../lib/store/open-store';
import { cleanup, git, makeRepo } from '../store/support/temp-repo';

const PATH = 'capsules/2026-12-01/01M9739ACJ00000000000009RG/capsule.md';

/** Commits `text` at PATH on refs/heads/capsules (its parent: the branch's tip, if any), with a gpgsig header when `signed`. */
function commitOnBranch(repo: { dir: string; env: NodeJS.ProcessEnv }, text: string, signed: boolean): string {
  const blobFile = join(repo.dir, '.blob');
  writeFileSync(blobFile, text);
  const blob = git(repo.dir, ['hash-object', '-w', blobFile], repo.env);
  const index = { ...repo.env, GIT_INDEX_FILE: join(repo.dir, '.git', 'capsules-index') };
  git(repo.dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},${PATH}`], index);
  const tree = git(repo.dir, ['write-tree'], index);
  let parent = '';
  try {
    parent = git(repo.dir, ['rev-parse', '--verify', '-q', 'refs/heads/capsules'], repo.env);
  } catch {
    parent = '';
  }
  const signature = signed ? 'gpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lHAAAAAQ==\n -----END SSH SIGNATURE-----\n' : '';
  writeFileSync(join(repo.dir, '.commit'), `tree ${tree}\n${parent ? `parent ${parent}\n` : ''}author t <t@example.invalid> 1700000000 +0000\ncommitter t <t@example.invalid> 1700000000 +0000\n${signature}\n${text}\n`);
  const commit = git(repo.dir, ['hash-object', '-t', 'commit', '-w', join(repo.dir, '.commit')], repo.env);
  git(repo.dir, ['update-ref', 'refs/heads/capsules', commit], repo.env);
  return commit;
}

describe("the resume ledger's signatures", () => {
  let repo: { dir: string; env: NodeJS.ProcessEnv };
  beforeEach(() => {
    repo = makeRepo();
    // An ssh signature that does not verify: git says B (bad) of it, never N.
    writeFileSync(join(repo.dir, 'allowed-signers'), '');
    git(repo.dir, ['config', 'gpg.ssh.allowedSignersFile', join(repo.dir, 'allowed-signers')], repo.env);
  });
  afterEach(() => cleanup(repo.dir));

  /** The signature noteSignatures gives the ledger entry of the capsule at PATH, read at `tip`. */
  async function signatureNoted(why: Pick<Rejection, 'reason' | 'detail'>, tip: string): Promise<Rejection['signature']> {
    const store = await openStore({ cwd: repo.dir, env: repo.env });
    const rejected: Rejection[] = [{ id: '01M9739ACJ00000000000009RG', path: PATH, status: 'active', ...why }];
    try {
      await noteSignatures(store, rejected, tip);
    } finally {
      await store.close();
    }
    return rejected[0]!.signature;
  }

  it('are those of the tip the selection read, even when the branch moves before they are checked (the consume commit runs beside them)', async () => {
    const selected = commitOnBranch(repo, 'unsigned revision', false);
    commitOnBranch(repo, 'a later signed revision', true); // the branch moved on: what a write running meanwhile does
    expect(await signatureNoted({ reason: 'no-identity', detail: 'no writer recorded' }, selected)).toEqual({ verified: false, status: 'N', signer: null });
  });

  it("are git's verdict when the commit that brought a capsule in is signed", async () => {
    const signed = commitOnBranch(repo, 'signed revision', true);
    expect(await signatureNoted({ reason: 'other-author', detail: 'written by another author' }, signed)).toMatchObject({ verified: false, status: 'B' });
  });
});
