import type { Scenario } from '../../scenario-types';

const RUN_PY = `"""Nightly orders ETL: reads one day's JSONL export, writes the revenue CSV for the warehouse."""
import argparse
import csv
import json
import os

from pipeline.transform import transform_row


def main(argv=None):
    p = argparse.ArgumentParser(prog="pipeline.run")
    p.add_argument("--date", required=True)
    p.add_argument("--input", required=True)
    p.add_argument("--out", default="out")
    a = p.parse_args(argv)
    with open(a.input, encoding="utf-8") as f:
        rows = [transform_row(json.loads(line)) for line in f if line.strip()]
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"revenue-{a.date}.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["order_id", "storefront", "amount_eur"])
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {len(rows)} rows to {path}")


if __name__ == "__main__":
    main()
`;

const TRANSFORM_PY = `"""Row-level cleaning of the orders export."""

FX_TO_EUR = {"EUR": 1.0, "GBP": 1.17, "CHF": 1.04}


def parse_amount(raw):
    """Amounts arrive as strings such as "1234.50"."""
    return round(float(raw), 2)


def transform_row(row):
    currency = row["currency"]
    amount = parse_amount(row["amount"])
    return {
        "order_id": row["id"],
        "storefront": row["storefront"],
        "amount_eur": round(amount * FX_TO_EUR[currency], 2),
    }
`;

const TEST_PY = `import unittest

from pipeline.transform import transform_row


class TransformRowTest(unittest.TestCase):
    def test_gbp_is_converted(self):
        row = {"id": "UK-1", "storefront": "uk", "amount": "10.00", "currency": "GBP"}
        self.assertEqual(transform_row(row)["amount_eur"], 11.7)

    def test_eur_is_kept(self):
        row = {"id": "FR-1", "storefront": "fr", "amount": "19.99", "currency": "EUR"}
        self.assertEqual(transform_row(row)["amount_eur"], 19.99)
`;

const EXPORTS_MD = `# The storefront exports

Each storefront writes one JSON object per order per line.

| field      | meaning                                                   |
|------------|-----------------------------------------------------------|
| id         | order id, prefixed with the storefront                    |
| storefront | uk, fr, ch, de                                            |
| amount     | order total as a string                                   |
| currency   | ISO 4217; absent on rows written before the 2023 migration, which are all EUR |
| locale     | the storefront's locale, e.g. en_GB, fr_FR, de_DE          |

## Amount formatting

All storefronts write \`amount\` with a \`.\` decimal point and no thousands separator, **except \`de\`**: the
German storefront formats the amount for its \`locale\` (\`de_DE\`): \`.\` for thousands and \`,\` for the
decimal point, e.g. \`1.234,50\`. Use the row's \`locale\` field; never infer the format from the string.
`;

const lines = [
  { id: 'UK-20931', storefront: 'uk', locale: 'en_GB', amount: '42.00', currency: 'GBP' },
  { id: 'FR-77120', storefront: 'fr', locale: 'fr_FR', amount: '19.99', currency: 'EUR' },
  { id: 'FR-11873', storefront: 'fr', locale: 'fr_FR', amount: '250.00' },
  { id: 'CH-3310', storefront: 'ch', locale: 'de_CH', amount: '88.40', currency: 'CHF' },
  { id: 'DE-88121', storefront: 'de', locale: 'de_DE', amount: '1.234,50', currency: 'EUR' },
  { id: 'UK-20932', storefront: 'uk', locale: 'en_GB', amount: '7.50', currency: 'GBP' },
  { id: 'DE-88122', storefront: 'de', locale: 'de_DE', amount: '15,90', currency: 'EUR' },
];

/** One crash fixed in transform.py, then a different one in the same file that is still open. */
export const sameFileSecondErrorEtl: Scenario = {
  name: 'same-file-second-error-etl',
  covers: "a Python ETL: KeyError in transform.py fixed, then a different ValueError in the same file still open; the user turned down the heuristic",
  repo: {
    'pipeline/__init__.py': '',
    'pipeline/run.py': RUN_PY,
    'pipeline/transform.py': TRANSFORM_PY,
    'tests/__init__.py': '',
    'tests/test_transform.py': TEST_PY,
    'docs/exports.md': EXPORTS_MD,
    'data/orders-2024-03-02.jsonl': lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: "Last night's orders ETL crashed on the 2024-03-02 export (data/orders-2024-03-02.jsonl) and the warehouse has no revenue for that day. Get it running again.",
          actions: [
            { tool: 'Bash', command: 'python3 -m pipeline.run --date 2024-03-02 --input data/orders-2024-03-02.jsonl', description: 'Rerun the ETL for 2024-03-02' },
            { tool: 'Read', path: 'pipeline/transform.py' },
            {
              tool: 'Edit',
              path: 'pipeline/transform.py',
              old: '    currency = row["currency"]\n',
              new: '    # Rows written before the 2023 migration have no currency; they are all EUR.\n    currency = row.get("currency") or "EUR"\n',
            },
            { tool: 'Bash', command: 'python3 -m unittest discover -s tests -t . -v 2>&1 | tail -n 6', description: 'Run the unit tests' },
            { tool: 'Bash', command: 'python3 -m pipeline.run --date 2024-03-02 --input data/orders-2024-03-02.jsonl', description: 'Rerun the ETL' },
            {
              text: "The KeyError: 'currency' is fixed: FR-11873 is a pre-2023 row without a currency, transform_row now defaults it to EUR (tests pass).\n\nThe rerun now stops on a different line of pipeline/transform.py: parse_amount() raises ValueError: could not convert string to float: '1.234,50' (order DE-88121). The German storefront writes amounts with a decimal comma.\n\nI could make parse_amount detect the format heuristically: if the last separator in the string is a comma, treat it as the decimal point. Shall I do that?",
            },
          ],
        },
        {
          prompt: "No heuristics, \"1.234\" is ambiguous. Look at how the exports are documented (docs/exports.md) before you touch parse_amount.",
          actions: [
            { tool: 'Read', path: 'docs/exports.md' },
            { tool: 'Bash', command: "grep -c '\"locale\":\"de_DE\"' data/orders-2024-03-02.jsonl", description: 'Count the de_DE rows' },
            {
              text: "docs/exports.md settles it: only the `de` storefront formats `amount` for its locale, and the row carries it in the `locale` field (de_DE: '.' for thousands, ',' for the decimal point). It says to use that field and never infer the format from the string. 2 rows of the 2024-03-02 export are de_DE.\n\nThe ValueError in parse_amount is still open; nothing changed there yet. Next step: give parse_amount the row's locale, and for de_DE drop the '.' and turn the ',' into '.', with a test for '1.234,50' -> 1234.5 in tests/test_transform.py; then rerun the 2024-03-02 export.",
            },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: "Let's continue." },
  facts: [
    { id: 'objective: the crashed nightly ETL run', in: ['objective'], pattern: 'ETL|nightly|orders|revenue|2024-03-02|crash' },
    { id: 'the open ValueError in parse_amount', in: ['errors'], pattern: 'could not convert|1\\.234,50|ValueError' },
    { id: 'next: parse_amount by the row locale', in: ['next_valid_action'], pattern: 'parse_amount|locale|de_DE' },
    { id: 'the documented rule: the locale field, de_DE', in: ['facts', 'done', 'next_valid_action'], pattern: 'de_DE|locale field|exports\\.md' },
    { id: 'transform.py in the files', in: ['files'], pattern: 'pipeline/transform\\.py' },
  ],
  antiFacts: [
    { id: 'the fixed KeyError shown open', in: ['errors'], pattern: "^(?!.*(resolved|fixed|→)).*KeyError" },
    { id: 'the open ValueError shown fixed', in: ['errors', 'done'], pattern: '(could not convert|1\\.234,50).*(resolved|fixed)|(fixed|resolved).*(could not convert|1\\.234,50)' },
    { id: 'the turned-down heuristic as the next step', in: ['next_valid_action'], pattern: 'heuristic|last separator|detect the format|guess' },
  ],
};
