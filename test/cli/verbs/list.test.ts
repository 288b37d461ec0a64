import { capsuleText, cliRepo } from './support';

describe('git capsule list', () => {
  let r: ReturnType<typeof cliRepo>;
  beforeAll(async () => {
    r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1', created_at: '2026-11-29T20:00:00Z', objective: 'older' }));
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A2', created_at: '2026-11-29T20:30:00Z', objective: 'newer', trigger: 'autosave' }));
    await r.cli(['status', '01JDQ7000000000000000000A1', 'resolved']);
  });
  afterAll(() => r.done());

  it('prints id, status, age, provenance, trigger and objective, newest first', async () => {
    const out = await r.cli(['list']);
    expect(out.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/))).toEqual([
      ['01JDQ7000000000000000000A2', 'active', '30m', 'sealed', 'autosave', 'newer'],
      ['01JDQ7000000000000000000A1', 'resolved', '1h', 'sealed', 'manual', 'older'],
    ]);
  });

  it('prints a JSON array filtered by --status and bounded by --limit', async () => {
    const out = await r.cli(['list', '--status', 'active', '--limit', '1', '--json']);
    expect(JSON.parse(out.stdout)).toEqual([{ id: '01JDQ7000000000000000000A2', status: 'active', created_at: '2026-11-29T20:30:00Z', trigger: 'autosave', objective: 'newer', provenance: { sealedHere: true, signature: null } }]);
    expect(JSON.parse((await r.cli(['list', '--status', 'resolved,paused', '--json'])).stdout).map((e: { id: string }) => e.id)).toEqual(['01JDQ7000000000000000000A1']);
  });

  it('exits 2 on an unknown status', async () => {
    expect((await r.cli(['list', '--status', 'done'])).code).toBe(2);
  });

  it('prints an empty array when the memory branch does not exist', async () => {
    const empty = cliRepo();
    expect((await empty.cli(['list', '--json'])).stdout).toBe('[]\n');
    empty.done();
  });
});
