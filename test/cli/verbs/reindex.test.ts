import { capsuleText, cliRepo } from './support';

describe('git capsule reindex', () => {
  it('reports an up-to-date index without committing', async () => {
    const r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1' }));
    expect(JSON.parse((await r.cli(['reindex', '--json'])).stdout)).toEqual({ commit: null, changed: false, count: 1 });
    r.done();
  });
});
