/**
 * A copy of `text` that holds nothing else alive. V8 makes a slice of a longer string a view
 * that keeps the whole parent: a 200-character preview could hold a tool output of megabytes.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}
