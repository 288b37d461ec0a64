import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '..', 'fixtures', 'capsules');

/** Every capsule fixture, by file name. */
export function capsuleFixtures(): Array<[string, string]> {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.md'))
    .map((f) => [f, readFileSync(join(DIR, f), 'utf8')]);
}

/** A valid capsule text with the given frontmatter lines replaced or added (`key: raw yaml`). */
export function capsuleWith(overrides: Record<string, string | null>): string {
  const base: Record<string, string> = {
    id: '01JDQ6Z8W1N9V3C5Q7R2T4Y6XA',
    objective: 'Ship the capsule validator',
    waiting_on: 'nothing; tests are green',
    next_valid_action: 'run npm test and commit',
    status: 'active',
    created_at: '2026-11-29T21:30:00+01:00',
  };
  const lines: string[] = [];
  for (const [key, value] of Object.entries({ ...base, ...overrides })) {
    if (value === null) continue;
    lines.push(value.startsWith('\n') ? `${key}:${value}` : `${key}: ${value}`);
  }
  return `---\n${lines.join('\n')}\n---\n`;
}
