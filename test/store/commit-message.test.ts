import { capsuleCommitMessage } from '../../lib/store/commit-message';
import type { IndexEntry } from '../../lib/store/types';
import { INVISIBLE_CHARACTERS, tagText } from '../support/hidden-characters';

const entry = (objective: string): IndexEntry => ({ id: '01JDQ7000000000000000000AB', status: 'active', createdAt: '2026-11-29T20:00:00Z', sortKey: '20261129T200000000Z', path: 'capsules/2026/11/01JDQ7000000000000000000AB/capsule.md', objective, sessionId: `s\u001b[2K${tagText('x')}` });

// `git log capsules` prints subjects and trailers byte for byte, so none may carry what a terminal obeys or hides.
describe('capsuleCommitMessage', () => {
  it.each([['ESC (OSC 52)', '\u001b]52;c;ZXZpbA==\u0007'], ['C1 CSI', '\u009b2K'], ...INVISIBLE_CHARACTERS])('folds %s out of the subject and the trailers', (_name, ch) => {
    const message = capsuleCommitMessage('write', entry(`fix ${ch} the build`));
    expect(message).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect([...message].filter((c) => INVISIBLE_CHARACTERS.some(([, h]) => h === c))).toEqual([]);
    expect(message.split('\n')[0]).toMatch(/^write 01JDQ7000000000000000000AB: fix .*the build$/);
  });
});
