import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leavePendingContext, takePendingContext } from '../../lib/local-state/pending-context';

const NOW = new Date('2026-12-06T21:00:00Z');

describe('the resume a PreCompact leaves for the next prompt', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'capsule-pending-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is taken once, by that session's next prompt", () => {
    leavePendingContext(dir, 'S1', 'RESUME TEXT', NOW);
    expect(takePendingContext(dir, 'S2')).toBeNull();
    expect(takePendingContext(dir, 'S1')).toBe('RESUME TEXT');
    expect(takePendingContext(dir, 'S1')).toBeNull();
  });

  it('replaces what an earlier compaction left', () => {
    leavePendingContext(dir, 'S1', 'first', NOW);
    leavePendingContext(dir, 'S1', 'second', NOW);
    expect(takePendingContext(dir, 'S1')).toBe('second');
  });

  it('is nothing when the file holds something else, and is removed all the same', () => {
    mkdirSync(join(dir, 'sessions'), { recursive: true });
    writeFileSync(join(dir, 'sessions', 'S1.pending-context.json'), 'not json');
    expect(takePendingContext(dir, 'S1')).toBeNull();
    expect(takePendingContext(dir, 'S1')).toBeNull();
  });
});
