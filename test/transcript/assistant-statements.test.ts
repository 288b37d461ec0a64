import { mayStateDone, readStatements } from '../../lib/transcript/assistant-statements';

describe('readStatements', () => {
  it.each([
    ['I added src/api/limiter.js. Next I will wire the limiter into src/api/login.js.', 'Wire the limiter into src/api/login.js'],
    ['Done.\n\nNext, I\'ll update test/fixtures/orders.json and run the suite again.', "Update test/fixtures/orders.json and run the suite again"],
    ['The next step is to convert connect() to a pool.', 'Convert connect() to a pool'],
    ['Next: remove the in-memory Map.', 'Remove the in-memory Map'],
    ['I will now run the migration.', 'Run the migration'],
    ['Let me check the logs next.', 'Check the logs'],
    ['Tests fail. I will make the store take an injectable client.', 'Make the store take an injectable client'],
    ['Next I will ask you for the current signing secret.', 'Ask the user for the current signing secret'],
    ['Streaming is in. Next step: wire the streaming writer into src/cli/export-command.ts and remove the buffered path.', 'Wire the streaming writer into src/cli/export-command.ts and remove the buffered path'],
    ['Next steps: tag the release.', 'Tag the release'],
    ['The config is fixed. next I rotate deploy.sh', 'Rotate deploy.sh'],
    ['The config is fixed; next I rotate deploy.sh.', 'Rotate deploy.sh'],
  ])('reads the stated next step of %j', (message, step) => {
    expect(readStatements(message).nextStep).toBe(step);
  });

  it('takes the latest stated step when there are two', () => {
    expect(readStatements('Next I will read a.ts. Read it. Next I will edit b.ts.').nextStep).toBe('Edit b.ts');
  });

  it('does not read "next I" with a past tense as a step', () => {
    expect(readStatements('Next I ran the suite and it passed.').nextStep).toBeUndefined();
  });

  it('does not read a negated or mid-message "I will" as a step', () => {
    expect(readStatements('I will not act on it. The secret was rotated.').nextStep).toBeUndefined();
    expect(readStatements('I will look. Then it broke. Then more. And more.').nextStep).toBeUndefined();
  });

  it('reads the closing question to the user', () => {
    const s = readStatements('I drafted the notes.\n\nOne question: should the /v1/carts change be listed under "Breaking changes", or kept out until v3?');
    expect(s.question).toBe('One question: should the /v1/carts change be listed under "Breaking changes", or kept out until v3?');
  });

  it('does not read a question earlier in the message as the closing one', () => {
    expect(readStatements('Why did it fail? Because of the cache. I cleared it. All good now.').question).toBeUndefined();
  });

  it.each([
    'I started CI pipeline #4411; I am waiting for that pipeline to pass before opening the pull request.',
    'The pull request is open; I will merge once CI passes.',
    'The deploy is still running.',
  ])('reads what the work waits on in %j', (message) => {
    expect(readStatements(message).waiting).toBeDefined();
  });

  it.each([
    ['The auth tests pass now: login() did not await verify().', ['The auth tests pass now']],
    ['I added src/api/limiter.js, a sliding window.', ['I added src/api/limiter.js, a sliding window']],
    ['src/session/redis-store.js is written, but its test fails.', ['src/session/redis-store.js is written']],
    ['Fixed: README.md now says npm install.', ['Fixed: README.md now says npm install']],
    ['The integration suite finished: 40 passed, 0 failed.', ['The integration suite finished']],
    ['Lint still fails on src/db.js. test/orders.test.js now fails.', []],
    ['The tests still fail although the fix was added.', []],
    ['The migration is not finished.', []],
    ['That failed. Next I will fix the exporter so GAMMA-TEST passes.', []],
    ["I'll make sure the build passes.", []],
    ['Let me check the tests pass once the cache is warm.', []],
    ['The parser is now fixed.', ['The parser is now fixed']],
    ['The docs WERE UPDATED.', ['The docs WERE UPDATED']],
    ['Everything is in place.', ['Everything is in place']],
    ['The migration was completed.', ['The migration was completed']],
    ['Done with step 7.', ['Done with step 7']],
    ['Completed the migration.', ['Completed the migration']],
    ['This line is unterminated.', []],
  ])('reads what %j reports finished', (message, done) => {
    expect(readStatements(message).done).toEqual(done);
  });

  it.each([
    ["I'll update the docs next.", 'Update the docs'],
    ['Then we should merge the branch.', 'Merge the branch'],
    ['Afterwards, let me rerun the suite.', 'Rerun the suite'],
    ['My next steps are: tag the release.', 'Tag the release'],
    ['Remaining: the docs page.', 'The docs page'],
    ['TODO - regenerate the fixture.', 'Regenerate the fixture'],
  ])('reads the step %j states with its opening words', (message, step) => {
    expect(readStatements(message).nextStep).toBe(step);
  });
});

describe('mayStateDone', () => {
  it.each(['is done', 'the parser is now fixed', 'tests are green', 'it was merged', 'they were committed', 'is in place', 'is completed', 'was now updated'])(
    'holds for %j, which DONE_STATE matches',
    (lower) => {
      expect(mayStateDone(lower)).toBe(true);
    },
  );

  it.each(['this line is unterminated', 'whose test is flaky, and added one', 'is now', 'were'])('does not hold for %j, which it cannot match', (lower) => {
    expect(mayStateDone(lower)).toBe(false);
  });
});
