import { MAX_WORK_EVENT_TEXT } from './work-event-types';

// Only the start of a huge output is read: the lines that say what failed come early, and the
// whole scan stays linear and bounded on any tool result.
const MAX_SCANNED_CHARS = 64 * 1024;
const MAX_SCANNED_LINES = 400;
const MAX_LINE_CHARS = 400;

// Lines that never say what failed: npm's `> pkg@1.0.0 script` banner and script echo, npm's own
// lifecycle epilogue, stack frames, the host's `Exit code N` header.
const NOISE = /^(?:> |npm (?:error|ERR!) (?:code|path|command|Lifecycle|A complete log|errno|workspace|location|signal)|at \S|Exit code \d+$|\^+$)/;
// Lines that do: a FAIL heading, an error or exception, an assertion's expected/received, a
// linter's `line:col error`, the usual shell and runtime failures.
const STRONG = /^(?:FAIL\b|FAILED\b|ERROR\b|Error\b|error\b|fatal\b|panic\b|Traceback\b|✖|×|✗|●|E {2,}|not ok\b|\w*(?:Error|Exception)\b|Expected\b|Received\b|assert|\d+:\d+ +(?:error|warning)\b)|No such file or directory|command not found|Cannot find module|ECONNREFUSED|Permission denied|\bfailed\b/;
// Runner summaries, kept when there is room after the failing lines.
const SUMMARY = /^(?:Tests?:|Test Suites:|Test Files:|\d+ (?:failing|passing|failed|passed)\b|test result:|=+ .*\b(?:failed|passed|error)\b)/;
// A linter's file heading before its `line:col error` lines.
const PATH_LINE = /^[\w./@-]+\.[A-Za-z0-9]{1,8}$/;

/**
 * The lines of a failed call's output that say what failed, on one line joined with ` — `:
 * the FAIL/error/assertion lines first (a linter's position line with its file), then the
 * runner's summary if there is room; npm banners, stack frames and the `Exit code` header are
 * skipped. With no such line, the first lines that are not noise. Linear in the output.
 *
 * @example errorLine('> app@1.0.0 test\nFAIL test/a.test.js\n  ● adds\n') // 'FAIL test/a.test.js — ● adds'
 */
export function errorLine(output: string, max = MAX_WORK_EVENT_TEXT): string {
  const lines = output.slice(0, MAX_SCANNED_CHARS).split('\n', MAX_SCANNED_LINES);
  const strong: string[] = [];
  const summary: string[] = [];
  const plain: string[] = [];
  let pathLine: string | null = null;
  for (const raw of lines) {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (line === '' || NOISE.test(line)) continue;
    // A long line is output (minified code, a dump), never a heading: it is only ever plain.
    if (line.length > MAX_LINE_CHARS) plain.push(line);
    else if (PATH_LINE.test(line)) {
      pathLine = line;
      plain.push(line);
    } else if (SUMMARY.test(line)) summary.push(line);
    else if (STRONG.test(line)) strong.push(/^\d+:\d+ /.test(line) && pathLine !== null ? `${pathLine} ${line}` : line);
    else plain.push(line);
  }
  // One summary is enough: the Tests line when there is one (jest prints Test Suites first), else the last.
  const tally = summary.filter((l) => /^Tests?:/.test(l)).pop() ?? summary.pop();
  const tail = tally === undefined ? [] : [tally];
  const picked = strong.length > 0 ? [...strong, ...tail] : [...plain.slice(0, 3), ...tail];
  let text = '';
  for (const line of picked) {
    const next = text === '' ? line : `${text} — ${line}`;
    if (next.length > max) {
      if (text === '') text = `${line.slice(0, max - 1).trimEnd()}…`;
      break;
    }
    text = next;
  }
  return text;
}
