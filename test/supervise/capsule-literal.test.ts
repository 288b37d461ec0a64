import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPSULE_LITERAL, findCapsuleLiteral } from '../../lib/supervise/capsule-literal';

const ID = '01JD3Z8M2V6K6Y9Q2W4R5T7X8C';

describe('findCapsuleLiteral', () => {
  it.each([
    [`Saved the capsule.\ncapsule written: ${ID}`, ID],
    [`capsule written: ${ID}\n\n`, ID],
    [`Done.\n\`capsule written: ${ID}\``, ID],
    [`Done.\n**capsule written: ${ID}**`, ID],
    [`capsule written: ${ID}.`, ID],
    [`Done.\r\ncapsule written: ${ID}\r\n`, ID],
  ])('finds the id at the end of %p', (text, id) => {
    expect(findCapsuleLiteral(text)).toBe(id);
  });

  it.each([
    [`capsule written: ${ID}\nand now the next task`],
    [`I will end with capsule written: ${ID}`],
    ['capsule written: '],
    ['capsule written: <id>'],
    [''],
  ])('finds none in %p', (text) => {
    expect(findCapsuleLiteral(text)).toBeNull();
  });

  it('is the literal the capsule skill ends with', () => {
    const skill = readFileSync(join(__dirname, '..', '..', 'skills', 'context-capsule', 'SKILL.md'), 'utf8');
    expect(skill).toContain(`\`${CAPSULE_LITERAL} <id>\``);
  });
});
