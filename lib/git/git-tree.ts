/** One entry of a git tree object. */
export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
  isTree: boolean;
}

/**
 * Parses a raw tree object (as `cat-file --batch` prints it: `<mode> <name>\0<binary oid>`).
 * `oidBytes` is 20 for SHA-1 repositories and 32 for SHA-256 ones.
 */
export function parseTree(content: Buffer, oidBytes: number): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let pos = 0;
  while (pos < content.length) {
    const space = content.indexOf(32, pos);
    const nul = content.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > content.length) break;
    const mode = content.toString('latin1', pos, space);
    const name = content.toString('utf8', space + 1, nul);
    const oid = content.toString('hex', nul + 1, nul + 1 + oidBytes);
    entries.push({ mode, name, oid, isTree: mode === '40000' });
    pos = nul + 1 + oidBytes;
  }
  return entries;
}
