import { parseCapsule } from '../capsule/parse';
import { renderCapsule } from '../capsule/render';
import { validateCapsuleText } from '../capsule/validate';
import { redactDeep } from '../redact/redact-deep';
import { foldHomePaths, foldHomePathsDeep } from '../redact/home-paths';
import { redactKeptText, type RedactionResult } from '../redact/redact-secrets';

/**
 * Redacts a capsule text before it is committed (the memory branch is pushed; docs/security.md
 * "Secrets"): every user's home folder becomes `~` (lib/redact/home-paths.ts: a path names its
 * user), then the
 * rules that name what they find, then every opaque token left (lib/redact/opaque-tokens.ts), and
 * keeps it a capsule: a text without secrets or home folders comes back byte for byte; when a
 * marker would change the YAML's shape (`objective: [REDACTED:…]` reads as a list), the parsed
 * document is redacted and rendered instead. A home folder is not a secret: it is not counted
 * among the findings. Never throws.
 */
export function redactCapsuleText(text: string): RedactionResult {
  const folded = foldHomePaths(text);
  const plain = redactKeptText(folded);
  if (plain.findings.length === 0 && folded === text) return { text, findings: [] };
  if (validateCapsuleText(plain.text).problems.length === 0) return plain;
  const { doc } = parseCapsule(text);
  if (doc === null) return plain;
  const deep = redactDeep(foldHomePathsDeep(doc), { opaque: {} });
  return { text: renderCapsule(deep.value), findings: deep.findings };
}
