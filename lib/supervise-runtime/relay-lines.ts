import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';

/**
 * Relays `from` to `to` byte for byte, chunk by chunk as it arrives (the supervisor's stdout is
 * the client's stream, unchanged), and hands every complete line to `onLine` after the chunk
 * that completes it is written. Honours back-pressure: a slow reader of `to` pauses `from`, it
 * never piles up output in memory. A `to` that fails (its reader went away) stops the relay,
 * not the reading: the supervisor still needs the lines.
 */
export function relayLines(from: Readable, to: Writable, onLine: (line: string) => void): void {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let open = true;
  to.on('error', () => {
    open = false;
    from.resume(); // a 'drain' will never come
  });
  from.on('data', (chunk: Buffer) => {
    if (open && !to.write(chunk)) {
      from.pause();
      to.once('drain', () => from.resume());
    }
    pending += decoder.write(chunk);
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      newline = pending.indexOf('\n');
    }
  });
  from.on('end', () => {
    pending += decoder.end();
    if (pending !== '') onLine(pending);
    pending = '';
  });
}
