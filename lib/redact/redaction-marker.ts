/** The text that replaces a secret: `[REDACTED:<kind>]`. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

// References and placeholders are not secrets: `${DB_PASSWORD}`, `$TOKEN`, `%API_KEY%`,
// `$(cat file)`, `{{ secrets.X }}`, `<your-token>`, `****`, and values already redacted (by us or by the host).
const PLACEHOLDER = /^(?:\$\{|\$\(|\$[A-Za-z_][A-Za-z0-9_]*$|%[A-Za-z_][A-Za-z0-9_]*%$|\{\{|<[A-Za-z_ -]*>?$|\*{3,}|x{6,}$|\.{3}$|\[REDACTED:)/i;

/** True when a value is a variable reference, a template placeholder, a mask or an earlier redaction. */
export function isPlaceholderValue(value: string): boolean {
  return PLACEHOLDER.test(value);
}
