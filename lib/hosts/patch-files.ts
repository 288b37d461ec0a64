/** The paths an apply_patch names (`*** Add File:`, `Update File:`, `Delete File:`, `Move to:`), as written. */
export function patchFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)) files.add(m[1]!.trim());
  return [...files];
}
