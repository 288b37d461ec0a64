import { clientModel, streamJsonCommand } from '../../lib/supervise/client-command';

describe('streamJsonCommand', () => {
  it('appends the flags the supervisor needs', () => {
    expect(streamJsonCommand(['claude', '--plugin-dir', '.'])).toEqual({
      argv: ['claude', '--plugin-dir', '.', '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
      added: ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
    });
  });

  it('adds nothing that is already there, in either spelling', () => {
    const argv = ['claude', '--print', '--input-format=stream-json', '--output-format', 'stream-json', '--verbose'];
    expect(streamJsonCommand(argv)).toEqual({ argv, added: [] });
  });

  it.each([
    [['claude', '--output-format', 'text']],
    [['claude', '--input-format=text']],
  ])('refuses %p: the supervisor must read and write the stream', (argv) => {
    expect(() => streamJsonCommand(argv)).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });

  it('refuses an empty command', () => {
    expect(() => streamJsonCommand([])).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });

  it('finds the model the command names', () => {
    expect(clientModel(['claude', '--model', 'claude-opus-5-5'])).toBe('claude-opus-5-5');
    expect(clientModel(['claude', '--model=sonnet'])).toBe('sonnet');
    expect(clientModel(['claude'])).toBeNull();
  });
});
