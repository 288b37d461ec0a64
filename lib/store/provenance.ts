import type { SignatureCheck } from '../git/commit-signature';
import type { MemoryStore } from './types';

/**
 * Where a capsule comes from, as far as this clone can prove it: sealed by this clone (its own
 * key), else git's own check of the signature on the commit that brought the document in.
 * Identity fields (author, machine) prove nothing: anyone who can push can copy them.
 */
export interface Provenance {
  sealedHere: boolean;
  /** Null for a capsule sealed here (nothing to check) or whose document was not read. */
  signature: SignatureCheck | null;
}

/**
 * The provenance of each document (by its path): the seal from its text, and for every one not
 * sealed here git's signature check, all in one `git log`. A document whose text is null (not
 * read) is judged by its commit alone. Throws GIT_FAILED.
 */
export async function provenanceOf(store: Pick<MemoryStore, 'sealOf' | 'signaturesOf'>, docs: ReadonlyArray<{ path: string; text: string | null }>): Promise<Map<string, Provenance>> {
  const sealed = new Map(docs.map((d) => [d.path, d.text !== null && store.sealOf(d.text) === 'valid']));
  const signatures = await store.signaturesOf(docs.filter((d) => !sealed.get(d.path)).map((d) => d.path));
  return new Map(docs.map((d) => [d.path, { sealedHere: sealed.get(d.path) === true, signature: sealed.get(d.path) ? null : (signatures.get(d.path) ?? null) }]));
}

/** One word, for a table column: `sealed` (by this clone), `verified`, `unverified`. */
export function provenanceWord(p: Provenance): 'sealed' | 'verified' | 'unverified' {
  if (p.sealedHere) return 'sealed';
  return p.signature?.verified === true ? 'verified' : 'unverified';
}

/** Why a capsule is unverified, or who signed it: `signed by "b@example.com"`, `not signed`, `git says B`. */
export function signatureWhy(signature: SignatureCheck | null): string {
  if (signature === null || signature.commit === null) return 'no commit found';
  if (signature.verified) return `signed by ${JSON.stringify(signature.signer ?? 'unknown signer')}`;
  return signature.status === 'N' ? 'not signed' : `git says ${signature.status}`;
}

/** `written here: sealed by this clone`, or what git says of the signature of the commit that brought it in. */
export function provenanceLine(p: Provenance): string {
  if (p.sealedHere) return 'written here: sealed by this clone';
  const s = p.signature;
  if (s === null || s.commit === null) return 'signature: unverified (no commit found)';
  if (s.verified) return `signature: verified (git verify-commit: ${signatureWhy(s)}, commit ${s.commit.slice(0, 12)})`;
  return `signature: unverified (${signatureWhy(s)}, commit ${s.commit.slice(0, 12)})`;
}
