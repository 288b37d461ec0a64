import type { Action, Scenario } from '../../scenario-types';

const UTILS = `"""Money and date helpers for billing."""
from datetime import timedelta
from decimal import ROUND_HALF_EVEN, Decimal


def round_cents(amount):
    return Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


def to_minor_units(amount):
    return int(round_cents(amount) * 100)


def period_bounds(day):
    start = day.replace(day=1)
    following = (start + timedelta(days=32)).replace(day=1)
    return start, following - timedelta(days=1)


def next_invoice_date(day):
    return period_bounds(day)[1] + timedelta(days=1)
`;

const MONEY = `"""Money helpers: rounding to cents and minor units."""
from decimal import ROUND_HALF_EVEN, Decimal


def round_cents(amount):
    return Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


def to_minor_units(amount):
    return int(round_cents(amount) * 100)
`;

const DATES = `"""Billing periods and invoice dates."""
from datetime import timedelta


def period_bounds(day):
    start = day.replace(day=1)
    following = (start + timedelta(days=32)).replace(day=1)
    return start, following - timedelta(days=1)


def next_invoice_date(day):
    return period_bounds(day)[1] + timedelta(days=1)
`;

// The seven callers: path, the names they import, and a body that uses them.
const CALLERS: Array<[string, string[], string]> = [
  ['billing/invoice.py', ['round_cents', 'period_bounds'], 'def invoice_total(lines, day):\n    start, end = period_bounds(day)\n    return round_cents(sum(l["amount"] for l in lines if start <= l["day"] <= end))\n'],
  ['billing/tax.py', ['round_cents'], 'def vat(amount, rate="0.21"):\n    return round_cents(Decimal(amount) * Decimal(rate))\n'],
  ['billing/stripe_sync.py', ['to_minor_units'], 'def charge_payload(invoice):\n    return {"amount": to_minor_units(invoice["total"]), "currency": "eur"}\n'],
  ['billing/dunning.py', ['next_invoice_date'], 'def retry_date(day):\n    return next_invoice_date(day)\n'],
  ['billing/proration.py', ['period_bounds', 'round_cents'], 'def prorate(amount, day):\n    start, end = period_bounds(day)\n    used = (end - day).days + 1\n    return round_cents(Decimal(amount) * used / ((end - start).days + 1))\n'],
  ['billing/credit_notes.py', ['round_cents', 'to_minor_units'], 'def credit_note(amount):\n    return {"amount": round_cents(amount), "minor": to_minor_units(amount)}\n'],
  ['billing/reports/monthly.py', ['period_bounds'], 'def month_label(day):\n    start, _ = period_bounds(day)\n    return start.strftime("%Y-%m")\n'],
];
const MONEY_NAMES = new Set(['round_cents', 'to_minor_units']);
const usesDecimal = (body: string) => body.includes('Decimal(');
const callerFile = (names: string[], body: string) => `${usesDecimal(body) ? 'from decimal import Decimal\n\n' : ''}from billing.utils import ${names.join(', ')}\n\n\n${body}`;
const newImports = (names: string[]) => {
  const money = names.filter((n) => MONEY_NAMES.has(n));
  const dates = names.filter((n) => !MONEY_NAMES.has(n));
  return [money.length ? `from billing.money import ${money.join(', ')}` : '', dates.length ? `from billing.dates import ${dates.join(', ')}` : ''].filter(Boolean).join('\n');
};

const TESTS = `import unittest
from datetime import date
from decimal import Decimal

from billing.credit_notes import credit_note
from billing.dunning import retry_date
from billing.invoice import invoice_total
from billing.proration import prorate
from billing.reports.monthly import month_label
from billing.stripe_sync import charge_payload
from billing.tax import vat


class BillingTest(unittest.TestCase):
    def test_invoice_total(self):
        lines = [{"amount": Decimal("10.005"), "day": date(2024, 2, 3)}, {"amount": Decimal("1"), "day": date(2024, 3, 1)}]
        self.assertEqual(invoice_total(lines, date(2024, 2, 10)), Decimal("10.00"))

    def test_vat(self):
        self.assertEqual(vat("100"), Decimal("21.00"))

    def test_charge_payload(self):
        self.assertEqual(charge_payload({"total": Decimal("12.345")})["amount"], 1234)

    def test_retry_date(self):
        self.assertEqual(retry_date(date(2024, 2, 10)), date(2024, 3, 1))

    def test_prorate(self):
        self.assertEqual(prorate("29", date(2024, 2, 15)), Decimal("15.00"))

    def test_credit_note(self):
        self.assertEqual(credit_note("5.555")["minor"], 556)

    def test_month_label(self):
        self.assertEqual(month_label(date(2024, 12, 31)), "2024-12")
`;

const PROMPT = 'Split billing/utils.py into billing/money.py (round_cents, to_minor_units) and billing/dates.py (period_bounds, next_invoice_date), and update every import. Afterwards utils.py stays one release as a deprecation shim that re-exports both.';

const moveCaller = ([path, names]: [string, string[], string]): Action[] => [
  { tool: 'Read', path },
  { tool: 'Edit', path, old: `from billing.utils import ${names.join(', ')}`, new: path.endsWith('monthly.py') ? 'from billing.money import period_bounds' : newImports(names) },
];

const moves = CALLERS.flatMap(moveCaller);
// The context fills up after the third caller's edit: the client compacts in the middle of the turn.
moves[5] = { ...moves[5]!, inputTokens: 120000 };

const SUMMARY = `<summary>
1. Primary Request and Intent: split billing/utils.py into billing/money.py (round_cents, to_minor_units) and billing/dates.py (period_bounds, next_invoice_date), update every import, then turn utils.py into a deprecation shim for one release.
2. Key Technical Concepts: Python package billing, unittest, re-exports with a DeprecationWarning.
3. Files and Code Sections: billing/money.py and billing/dates.py created; the imports of billing/invoice.py, billing/tax.py and billing/stripe_sync.py moved to the new modules. Still on billing.utils: billing/dunning.py, billing/proration.py, billing/credit_notes.py, billing/reports/monthly.py.
4. Errors and fixes: none so far.
5. Problem Solving: grep found 7 callers of billing.utils.
6. All user messages:
   - "${PROMPT}"
7. Pending Tasks: the remaining 4 callers, run the tests, then the shim in billing/utils.py.
8. Current Work: moving the imports caller by caller.
</summary>`;

/** A refactor across many files, interrupted by an automatic compaction in the middle of the turn. */
export const autocompactSplitBillingUtils: Scenario = {
  name: 'autocompact-split-billing-utils',
  covers: 'a Python refactor across 9 files with an automatic compaction mid-turn: files from before and after it, the import error made and fixed after it, the shim as the next step',
  repo: {
    'billing/__init__.py': '',
    'billing/reports/__init__.py': '',
    'billing/utils.py': UTILS,
    ...Object.fromEntries(CALLERS.map(([path, names, body]) => [path, callerFile(names, body)])),
    'tests/__init__.py': '',
    'tests/test_billing.py': TESTS,
  },
  compactSummaries: [SUMMARY],
  sessions: [
    {
      name: 'main',
      env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '10' },
      steps: [
        {
          prompt: PROMPT,
          actions: [
            { tool: 'Bash', command: 'grep -rn "billing.utils" --include=*.py .', description: 'Find every import of billing.utils' },
            { tool: 'Read', path: 'billing/utils.py' },
            { tool: 'Write', path: 'billing/money.py', content: MONEY },
            { tool: 'Write', path: 'billing/dates.py', content: DATES },
            ...moves,
            { tool: 'Bash', command: 'python3 -m unittest discover -s tests -t . 2>&1 | tail -n 25', description: 'Run the billing tests' },
            { tool: 'Read', path: 'billing/reports/monthly.py' },
            { tool: 'Edit', path: 'billing/reports/monthly.py', old: 'from billing.money import period_bounds', new: 'from billing.dates import period_bounds' },
            { tool: 'Bash', command: 'python3 -m unittest discover -s tests -t . 2>&1 | tail -n 4 && grep -rn "billing.utils" --include=*.py . || echo "no billing.utils imports left"', description: 'Tests again, and any import left' },
            { text: "All 7 callers now import from billing.money or billing.dates (invoice, tax, stripe_sync, dunning, proration, credit_notes, reports/monthly). One slip on the way: billing/reports/monthly.py imported period_bounds from billing.money (ImportError: cannot import name 'period_bounds'); it imports from billing.dates now. The 7 tests pass and nothing imports billing.utils any more.\n\nbilling/utils.py still has the old code. Next: replace it with the deprecation shim that re-exports round_cents, to_minor_units, period_bounds and next_invoice_date from the new modules and emits a DeprecationWarning on import." },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'go on' },
  facts: [
    { id: 'objective: split billing/utils.py', in: ['objective'], pattern: 'utils\\.py|split|money\\.py|dates\\.py' },
    { id: 'next: the deprecation shim in utils.py', in: ['next_valid_action'], pattern: 'shim|deprecat|re-?export' },
    { id: 'billing/money.py in the files', in: ['files'], pattern: 'billing/money\\.py' },
    { id: 'a caller moved before the compaction (invoice.py) in the files', in: ['files'], pattern: 'billing/invoice\\.py' },
    { id: 'the last caller (reports/monthly.py) in the files', in: ['files'], pattern: 'reports/monthly\\.py' },
  ],
  antiFacts: [
    { id: 'the fixed ImportError shown open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*cannot import name' },
    { id: 'the compaction boilerplate as the objective', in: ['objective'], pattern: 'continued from a previous|previous conversation|<summary>|Primary Request' },
    { id: 'a stale next step: the callers already moved', in: ['next_valid_action'], pattern: 'remaining (4 )?callers|dunning|proration|credit_notes|update (the|every) import' },
  ],
};
