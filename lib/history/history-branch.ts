import { CapsuleError } from '../errors/capsule-error';
import type { GraphNode } from './history-addresses';

/** The selected branch, root (or first record after a gap) first. */
export interface Branch {
  leaf: string;
  path: GraphNode[];
  /** The ancestor the walk needed and did not find, if any. */
  missing: string[];
  /** The line of the record that named the missing ancestor (the evidence), when one is missing. */
  neededByLine?: number;
}

/**
 * Chooses the leaf (the given one, else a non-attachment leaf when there is one, then the last
 * in file order) and walks the latest parentUuid links to the root; a compact boundary joins its
 * logicalParentUuid. A missing ancestor stops the walk there and is reported, never bridged.
 * Throws HISTORY_NO_LEAF, HISTORY_LEAF_UNKNOWN and HISTORY_CYCLE (naming the line).
 */
export function selectBranch(nodes: Map<string, GraphNode>, leafUuid?: string): Branch {
  const leaf = leafUuid === undefined ? chooseLeaf(nodes) : nodes.get(leafUuid);
  if (leaf === undefined) {
    throw new CapsuleError('HISTORY_LEAF_UNKNOWN', `history: leaf ${leafUuid} is not a record of this transcript; expected the uuid of a user, assistant, system or attachment record. Run 'git capsule history list --json' to see uuids.`, { leaf: leafUuid });
  }
  const path: GraphNode[] = [];
  const onPath = new Set<string>();
  let current: string | null = leaf.uuid;
  let viaLogicalLink = false;
  while (current !== null) {
    if (onPath.has(current)) {
      // A boundary's logical parent already on the path is a preserved segment re-persisted
      // after the boundary: not a loop. The old events before it hang off the segment's
      // original (first-written) links, so the walk goes on from there.
      if (viaLogicalLink) {
        current = originalAncestor(nodes, onPath, current);
        viaLogicalLink = false;
        continue;
      }
      const node = nodes.get(current)!;
      throw new CapsuleError('HISTORY_CYCLE', `history: the parentUuid links loop back to ${current} (line ${node.lastLine}); expected a chain that ends at a root. The transcript is corrupted; pass --leaf to read another branch.`, { uuid: current, line: node.lastLine });
    }
    const node = nodes.get(current);
    if (node === undefined) {
      const neededByLine = path.at(-1)?.lastLine;
      return { leaf: leaf.uuid, path: path.reverse(), missing: [current], neededByLine };
    }
    path.push(node);
    onPath.add(current);
    const logical = node.record.logicalParentUuid;
    viaLogicalLink = node.parentUuid === null && isCompactBoundary(node) && typeof logical === 'string' && logical !== '';
    current = viaLogicalLink ? (logical as string) : node.parentUuid;
  }
  return { leaf: leaf.uuid, path: path.reverse(), missing: [] };
}

// Follows first-written parent links from a preserved node while they stay on the path; the
// first parent off the path is where the older history continues (null: the segment began it).
function originalAncestor(nodes: Map<string, GraphNode>, onPath: Set<string>, uuid: string): string | null {
  const seen = new Set<string>();
  let parent = nodes.get(uuid)?.record.parentUuid ?? null;
  while (parent !== null && onPath.has(parent) && !seen.has(parent)) {
    seen.add(parent);
    parent = nodes.get(parent)?.record.parentUuid ?? null;
  }
  return parent !== null && onPath.has(parent) ? null : parent;
}

/** True for a row written more than once (compaction re-persists preserved rows). */
export function isRepersisted(node: GraphNode): boolean {
  return node.lastLine !== node.line;
}

/** True for the system record Claude Code writes where a compaction starts a new window. */
export function isCompactBoundary(node: GraphNode): boolean {
  return node.record.type === 'system' && node.record.subtype === 'compact_boundary';
}

function chooseLeaf(nodes: Map<string, GraphNode>): GraphNode {
  const referenced = new Set<string>();
  for (const node of nodes.values()) {
    if (node.parentUuid !== null) referenced.add(node.parentUuid);
    const logical = node.record.logicalParentUuid;
    if (typeof logical === 'string') referenced.add(logical);
  }
  const leaves = [...nodes.values()].filter((n) => !referenced.has(n.uuid)).sort((a, b) => a.lastLine - b.lastLine);
  const preferred = leaves.filter((n) => n.record.type !== 'attachment');
  const chosen = (preferred.length > 0 ? preferred : leaves).at(-1);
  if (chosen === undefined) {
    throw new CapsuleError('HISTORY_NO_LEAF', `history: the transcript has no leaf record (${nodes.size} records, every one a parent); expected at least one message. Pass --leaf <uuid> or another --file.`, { records: nodes.size });
  }
  return chosen;
}
