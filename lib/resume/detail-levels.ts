/** How much of the lower-priority data one rendering keeps. */
export interface DetailLevel {
  /** Ledger examples per defect group. */
  examples: number;
  /** Ledger groups shown one by one; the rest fold into one counted line. */
  maxGroups: number;
  /** Fill the body by value up to the budget's room (lib/resume/body-budget.ts) instead of `bodyItems` per section. */
  fill: boolean;
  /** Bullets per body section, and the bound on each. */
  bodyItems: number;
  bodyItemMax: number;
  /** Bound on the body notes (0 omits them). */
  notesMax: number;
  /** Bound on each optional field (0 omits them). */
  optionalMax: number;
  /** Bound on each quoted evidence value (0 omits them). */
  evidenceMax: number;
  /** Only the ledger's two totals (ordinary, defects). */
  ledgerTotalsOnly: boolean;
  /** What this level gave up, for the announced truncation. */
  dropped: string;
}

/** Bound on objective, waiting_on and next_valid_action: fixed, never shrunk by the budget. */
export const REQUIRED_VALUE_MAX = 600;

const FULL: DetailLevel = { examples: 3, maxGroups: 50, fill: false, bodyItems: 12, bodyItemMax: 240, notesMax: 600, optionalMax: 300, evidenceMax: 1200, ledgerTotalsOnly: false, dropped: '' };

/**
 * The renderings tried in order until one fits the budget: the ledger's detail shrinks first,
 * then the body sections, then the optional fields, then the ledger to its totals. The fences,
 * the steps and the required fields are in every level unchanged.
 */
export const DETAIL_LEVELS: readonly DetailLevel[] = [
  { ...FULL, fill: true, bodyItemMax: 400 },
  { ...FULL, fill: true, examples: 1, dropped: 'ledger examples, body items by value' },
  FULL,
  { ...FULL, examples: 1, dropped: 'ledger examples' },
  { ...FULL, examples: 0, dropped: 'ledger examples' },
  { ...FULL, examples: 0, bodyItems: 6, bodyItemMax: 160, notesMax: 200, evidenceMax: 600, dropped: 'ledger examples, body sections, quoted evidence' },
  { ...FULL, examples: 0, bodyItems: 3, bodyItemMax: 100, notesMax: 0, evidenceMax: 300, dropped: 'ledger examples, body sections, quoted evidence' },
  { ...FULL, examples: 0, bodyItems: 0, notesMax: 0, evidenceMax: 300, dropped: 'ledger examples, body sections, quoted evidence' },
  { ...FULL, examples: 0, maxGroups: 6, bodyItems: 0, notesMax: 0, evidenceMax: 200, dropped: 'ledger examples and groups, body sections, quoted evidence' },
  { ...FULL, examples: 0, maxGroups: 6, bodyItems: 0, notesMax: 0, optionalMax: 80, evidenceMax: 160, dropped: 'ledger examples and groups, body sections, optional fields, quoted evidence' },
  { ...FULL, examples: 0, maxGroups: 6, bodyItems: 0, notesMax: 0, optionalMax: 0, evidenceMax: 120, dropped: 'ledger examples and groups, body sections, optional fields, quoted evidence' },
  { ...FULL, examples: 0, maxGroups: 0, bodyItems: 0, notesMax: 0, optionalMax: 0, evidenceMax: 0, ledgerTotalsOnly: true, dropped: 'the ledger down to its totals, body sections, optional fields, quoted evidence' },
];
