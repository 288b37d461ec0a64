import { capsuleText, cliRepo } from './support';
import { withoutIdentity } from '../../support/capsule-doc';

describe('git capsule show', () => {
  it('prints the document and its status history, or JSON', async () => {
    const r = cliRepo();
    // A document that names its HEAD and branch is committed as written (write stamps them only when missing).
    const written = capsuleText({ id: '01JDQ7000000000000000000A1', repo_head: 'a'.repeat(40), repo_branch: 'main' });
    await r.cli(['write', '-'], written);
    await r.cli(['status', '01JDQ7000000000000000000A1', 'paused', '--writer', 'me']);
    const out = await r.cli(['show', '01JDQ7000000000000000000A']);
    expect(withoutIdentity(out.stdout)).toContain(written);
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
