/**
 * node:child_process and node:zlib, loaded on first use. Every hook bundle reaches the code that
 * starts git and reads packs, but most runs never start git (the store reads the git files) and
 * some read no object at all: loading child_process (with net, dgram and stream) costs ~4 ms and
 * zlib ~2 ms, against ~40 ms for node's whole start.
 */
export function childProcess(): typeof import('node:child_process') {
  return require('node:child_process') as typeof import('node:child_process');
}

/** node:zlib, loaded on first use (see childProcess). */
export function zlib(): typeof import('node:zlib') {
  return require('node:zlib') as typeof import('node:zlib');
}
