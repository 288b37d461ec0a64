/**
 * The summariser's own words in Claude Code's compaction record. The client wraps them: a
 * preamble ("This session is being continued…", a system reminder listing tools, "Summary:")
 * and, after them, paragraphs of its own: one pointing at the transcript file by its absolute
 * path (the user's home folder, a temp name), instructions to continue, a note on the verbatim
 * messages that follow (2.1.332's record, test/fixtures). None is evidence of the work, and the
 * path must not reach the pushed branch (files under the home folder are written `~/…`
 * everywhere else), so everything from the pointer on is dropped, and the note wherever it stands.
 *
 * @example compactSummaryBody('This session is being continued…\nSummary:\nFixed X.\n\nIf you need specific details from before compaction …read the full transcript at: /home/a/x.jsonl')
 * // 'Fixed X.'
 */
export function compactSummaryBody(text: string): string {
  const start = /^Summary:[ \t]*$/m.exec(text);
  let body = start !== null && /^This session is being continued/.test(text) ? text.slice(start.index + start[0].length) : text;
  const pointer = body.search(/(?:^|\n)[ \t]*If you need specific details from before compaction/);
  if (pointer >= 0) body = body.slice(0, pointer);
  return body.replace(/(?:^|\n)[ \t]*The messages after this summary are the most recent messages from before compaction[^\n]*/, '').trim();
}
