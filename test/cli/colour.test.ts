import { formatTable, paint, renderColour } from '../../lib/cli/colour';
import { runCli } from '../support/run-cli';
import { capsuleText, cliRepo } from './verbs/support';

const ESC = '\x1b[';

describe('colour', () => {
  it('colours a terminal, and only a terminal', async () => {
    const r = cliRepo();
    expect((await runCli(['doctor'], { cwd: r.dir, env: r.env, tty: true })).stdout).toContain(`${ESC}32mOK  ${ESC}0m`);
    expect((await runCli(['doctor'], { cwd: r.dir, env: r.env, tty: false })).stdout).not.toContain('\x1b');
    r.done();
  });

  it.each([
    ['NO_COLOR set', ['doctor'], { NO_COLOR: '1' }],
    ['--no-color after the verb', ['doctor', '--no-color'], {}],
    ['--no-color before the verb', ['--no-color', 'doctor'], {}],
    ['TERM=dumb', ['doctor'], { TERM: 'dumb' }],
  ])('prints no colour with %s', async (_what, args, extra) => {
    const r = cliRepo();
    const out = await runCli(args, { cwd: r.dir, env: { ...r.env, ...extra }, tty: true });
    expect(out.stdout).toMatch(/^(OK|WARN|FAIL) /m);
    expect(out.stdout).not.toContain('\x1b');
    r.done();
  });

  it('colours the error code on a terminal stderr', async () => {
    expect((await runCli(['show', 'nope'], { cwd: '/', tty: true })).stderr).toContain(`${ESC}31m[`);
  });

  it('still escapes an escape sequence a capsule carries, with colour on', async () => {
    const r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1', objective: 'red \u001b[31m alert' }));
    const out = (await runCli(['list'], { cwd: r.dir, env: r.env, tty: true })).stdout;
    expect(out).toContain('red \\u001b[31m alert');
    expect(out).not.toContain('\x1b[31m alert');
    r.done();
  });

  it('drops the marks when colour is off', () => {
    expect(renderColour(`a ${paint('warn', 'b')} c`, false)).toBe('a b c');
  });
});

describe('formatTable', () => {
  it('pads every column but the last to its widest cell, ignoring colour marks', () => {
    const table = renderColour(formatTable([[paint('id', 'a'), 'active', '5s', 'manual', 'x'], ['bbb', 'resumed', '12d', 'pre-compact', 'y']], { right: [2] }), false);
    expect(table).toBe('a    active    5s  manual       x\nbbb  resumed  12d  pre-compact  y\n');
  });
});

describe('git capsule list', () => {
  it('aligns its columns whatever the trigger and status widths', async () => {
    const r = cliRepo();
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A1', objective: 'first' }));
    await r.cli(['write', '-'], capsuleText({ id: '01JDQ7000000000000000000A2', objective: 'second', trigger: 'pre-compact' }));
    await r.cli(['status', '01JDQ7000000000000000000A1', 'resumed']);
    const lines = (await r.cli(['list'])).stdout.trimEnd().split('\n');
    expect(new Set(lines.map((l) => l.search(/(first|second)$/))).size).toBe(1);
    r.done();
  });
});
