import { capsuleText, cliRepo } from './support';
import { withoutIdentity } from '../../support/capsule-doc';

describe('git capsule show', () => {
  it('prints the document and its status history, or JSON', async () => {
    const r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1' }));
    await r.cli(['status', '01JDQ7000000000000000000A1', 'paused', '--writer', 'me']);
    const out = await r.cli(['show', '01JDQ7000000000000000000A']);
    expect(withoutIdentity(out.stdout)).toContain(capsuleText({ id: '01JDQ7000000000000000000A1' }));
    expect(out.stdout).toMatch(/# status: paused/);
    expect(out.stdout).toMatch(/20261129T210000000Z\s+paused\s+by me/);
    const json = JSON.parse((await r.cli(['show', '01JDQ7000000000000000000A1', '--json'])).stdout);
    expect(json).toMatchObject({ id: '01JDQ7000000000000000000A1', status: 'paused', events: [{ writer: 'me', status: 'paused' }] });
    const missing = await r.cli(['show', 'ZZZZ']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('[NOT_FOUND]');
    r.done();
  });
});
