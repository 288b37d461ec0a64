import { capsuleText, cliRepo } from './support';

describe('git capsule status', () => {
  it('moves a capsule forward and refuses to move it back', async () => {
    const r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1' }));
    expect(JSON.parse((await r.cli(['status', '01JDQ7000000000000000000A1', 'resumed', '--json'])).stdout)).toMatchObject({ status: 'resumed', changed: true });
    const back = await r.cli(['status', '01JDQ7000000000000000000A1', 'active']);
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('[STATUS_BACKWARD]');
    expect((await r.cli(['status', '01JDQ7000000000000000000A1', 'finished'])).code).toBe(2);
    r.done();
  });

  it('echoes the full id when given a prefix', async () => {
    const r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1' }));
    expect((await r.cli(['status', '01JDQ70000', 'paused'])).stdout).toBe('01JDQ7000000000000000000A1: paused\n');
    expect(JSON.parse((await r.cli(['status', '01JDQ70000', 'paused', '--json'])).stdout).id).toBe('01JDQ7000000000000000000A1');
    r.done();
  });
});
