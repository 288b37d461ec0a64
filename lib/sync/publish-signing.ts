/**
 * Whether sync signs the commit it publishes (docs/sync.md "Signed publishes"): when the user
 * configured a signing key (`user.signingKey`) for a format git signs commits with (`gpg.format`
 * `ssh`, or `openpgp`, git's default). Git then signs with its own machinery (ssh-keygen or gpg);
 * nothing else git-capsule writes is ever signed. `values` are the config values, keys lower-cased.
 */
export function signsPublish(values: Readonly<Record<string, string>>): boolean {
  const key = values['user.signingkey'];
  const format = (values['gpg.format'] ?? 'openpgp').toLowerCase();
  return key !== undefined && key.trim() !== '' && (format === 'ssh' || format === 'openpgp');
}
