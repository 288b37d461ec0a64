import { parseCapsule } from '../capsule/parse';
import { renderCapsule } from '../capsule/render';
import { validateCapsuleText } from '../capsule/validate';
import { redactDeep } from '../redact/redact-deep';
import { redactKeptText, type RedactionResult } from '../redact/redact-secrets';

/**
 * Redacts a capsule text before it is committed (the memory branch is pushed; docs/security.md "Secrets"): the
 * rules that name what they find, then every opaque token left (lib/redact/opaque-tokens.ts), and
 * keeps it a capsule: a text without secrets comes back byte for byte; when a marker would
 * change the YAML's shape (`objective: [REDACTED:…]` reads as a list), the parsed document is
 * redacted and rendered instead. Never throws.
 */
export function redactCapsuleText(text: string): RedactionResult {
  const plain = redactKeptText(text);
  if (plain.findings.length === 0) return { text, findings: [] };
  if (validateCapsuleText(plain.text).problems.length === 0) return plain;
  const { doc } = parseCapsule(text);
  if (doc === null) return plain;
  const deep = redactDeep(doc, { opaque: {} });
  return { text: renderCapsule(deep.value), findings: deep.findings };
}
