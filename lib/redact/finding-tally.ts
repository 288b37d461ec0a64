/** One kind of secret found and how many times it was redacted. */
export interface RedactionFinding {
  kind: string;
  count: number;
}

/** Counts redactions by kind, in first-seen order, for the `findings` of a redaction result. */
export class FindingTally {
  private readonly counts = new Map<string, number>();

  /** Counts one redaction of `kind`. */
  add(kind: string, n = 1): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + n);
  }

  /** Adds every count of another finding list (a nested redaction). */
  merge(findings: readonly RedactionFinding[]): void {
    for (const f of findings) this.add(f.kind, f.count);
  }

  /** The findings so far, in first-seen order. */
  list(): RedactionFinding[] {
    return [...this.counts].map(([kind, count]) => ({ kind, count }));
  }
}
