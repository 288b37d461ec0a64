import { copilotSessionSource } from '../../../lib/hosts/copilot/session-source';
import type { LineageRecord } from '../../../lib/local-state/lineage-record';

const record = (over: Partial<LineageRecord>): LineageRecord => ({ format: 1, host: 'copilot', key: '42', chain: [], updatedAt: '2026-12-06T00:00:00Z', ...over });

describe("Copilot's sessionStart source, read into the core's", () => {
  it('is a start for a new session in a client that ran none before', () => {
    expect(copilotSessionSource('new', 'S1', null)).toBe('startup');
    expect(copilotSessionSource('new', 'S1', record({}))).toBe('startup');
  });

  it('is a clear for a new session in a client whose lineage names another session (after /clear or /new)', () => {
    expect(copilotSessionSource('new', 'S2', record({ session: 'S1', handOver: { from: 'S1', reason: 'clear', at: '2026-12-06T00:00:00Z' } }))).toBe('clear');
    expect(copilotSessionSource('new', 'S2', record({ session: 'S1' }))).toBe('clear');
  });

  it('stays a clear when a second registration runs after the first took the lineage', () => {
    expect(copilotSessionSource('new', 'S2', record({ session: 'S2', chain: ['S1'] }))).toBe('clear');
  });

  it('is a start when the record names this very session and nothing before it', () => {
    expect(copilotSessionSource('new', 'S1', record({ session: 'S1' }))).toBe('startup');
  });

  it('keeps resume (--continue, --resume) whatever the record says', () => {
    expect(copilotSessionSource('resume', 'S2', record({ session: 'S1' }))).toBe('resume');
  });

  it('is a start without a session id', () => {
    expect(copilotSessionSource('new', undefined, record({ session: 'S1' }))).toBe('startup');
  });
});
