import { endOfTurn, UNREAD_STEP, userRequest } from '../../lib/transcript/turn-events';
import type { WorkEvent } from '../../lib/transcript/work-event-types';

const collect = (run: (emit: (e: WorkEvent) => void) => void): WorkEvent[] => {
  const out: WorkEvent[] = [];
  run((e) => out.push(e));
  return out;
};

describe('userRequest', () => {
  it('records a correction as the approach rejected and the constraint it sets, on the current task', () => {
    const events = collect((emit) => userRequest("No, don't add lodash… write a small helper in src/util/debounce.ts instead.", false, {}, emit));
    expect(events.find((e) => e.kind === 'user-request')?.followUp).toBe(true);
    expect(events.filter((e) => e.kind === 'rejected').map((e) => e.text)).toEqual(["rejected by the user: No, don't add lodash…"]);
    expect(events.filter((e) => e.kind === 'constraint').map((e) => e.text)).toEqual(['from the user: write a small helper in src/util/debounce.ts instead.']);
  });

  it('quotes the prompt as typed, beside the task read from it', () => {
    const [request] = collect((emit) => userRequest('Great, thanks. Now add rate limiting.', false, {}, emit));
    expect(request).toMatchObject({ text: 'Add rate limiting.', quote: 'Great, thanks. Now add rate limiting.' });
  });
});

describe('endOfTurn', () => {
  it('quotes the final message whole, bounded, with its end kept', () => {
    const long = `${'Background. '.repeat(200)}Next step: wire the streaming writer.`;
    const [quoted] = collect((emit) => endOfTurn({ didWork: true }, long, emit));
    expect(quoted!.kind).toBe('final-message');
    expect(quoted!.quote!.length).toBeLessThanOrEqual(1200);
    expect(quoted!.quote!.endsWith('Next step: wire the streaming writer.')).toBe(true);
  });

  it.each([
    ['German', 'Die Kopfzeile lautet jetzt "Rechnung 7". Als Nächstes übersetze ich die Spaltenüberschriften in src/reports/pdf.js.', 'Als Nächstes übersetze ich die Spaltenüberschriften in src/reports/pdf.js.'],
    ['Japanese', '大文字のテストが失敗しました。次は src/api/shipping.js で都道府県名を小文字にします。', '次は src/api/shipping.js で都道府県名を小文字にします。'],
  ])("points the next action at a %s final message it cannot read, with its last sentence as written, instead of saying none was stated", (_language, message, last) => {
    const events = collect((emit) => endOfTurn({ didWork: true }, message, emit));
    expect(events.filter((e) => e.kind === 'progress')).toEqual([]);
    expect(events.find((e) => e.kind === 'next-step')?.text).toBe(`${UNREAD_STEP}${last}`);
  });

  it('says an English turn that did work stated no step, and points at nothing', () => {
    const events = collect((emit) => endOfTurn({ didWork: true }, 'The header reads "Invoice 7" now and the date is in place.', emit));
    expect(events.map((e) => e.kind)).toContain('progress');
    expect(events.find((e) => e.kind === 'next-step')).toBeUndefined();
  });
});
