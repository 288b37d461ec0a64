import { capsuleText, cliRepo } from './support';

describe('git capsule log', () => {
  it('prints the journal newest first, with trailers in --json', async () => {
    const r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1' }));
    await r.cli(['status', '01JDQ7000000000000000000A1', 'resolved']);
    const lines = (await r.cli(['log'])).stdout.trim().split('\n');
    expect(lines.map((l) => l.split('  ')[2])).toEqual([
      'status 01JDQ7000000000000000000A1: active -> resolved',
      'write 01JDQ7000000000000000000A1: Make the store write capsules',
      'init: git-capsule memory branch',
    ]);
    const json = JSON.parse((await r.cli(['log', '--limit', '1', '--json'])).stdout);
    expect(json).toHaveLength(1);
    expect(json[0].trailers).toMatchObject({ 'Capsule-Op': 'status', 'Capsule-Status': 'resolved' });
    r.done();
  });
});
