import { decisionSentence, isDecision } from '../../lib/transcript/prompt-signals';

describe('isDecision', () => {
  it.each([
    "Let's go with the pool.",
    'LETS USE postgres',
    'Go with option B.',
    'We decided to keep the cache.',
    "We'll use Redis for the sessions.",
    'We will use the queue.',
    "I'll switch to the new client.",
    'I will go with the smaller index.',
    'Use the staging bucket instead.',
    'Switching to yarn.',
  ])('reads %j as a choice', (text) => {
    expect(isDecision(text)).toBe(true);
  });

  it.each(['I did it because the user asked.', 'The used ports are listed.', 'I left that alone.', 'We reuse the buffer.'])('does not read %j as one', (text) => {
    expect(isDecision(text)).toBe(false);
  });
});

describe('decisionSentence', () => {
  it('returns the sentence that records the choice', () => {
    expect(decisionSentence('The parser is fixed because the user asked. We will use the streaming reader from now on.')).toBe('We will use the streaming reader from now on.');
  });

  it('returns null for a text that only uses the word use', () => {
    expect(decisionSentence('I did it because the user asked, and used the old reader.')).toBeNull();
  });
});
