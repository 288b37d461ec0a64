import { DAY_NAME, DAY_OF_MONTH_NAME, MONTH_NAME, YEAR_NAME } from '../../lib/store/memory-format';

/** The names of `names` that `pattern` accepts. */
function accepted(pattern: RegExp, names: readonly string[]): string[] {
  return names.filter((n) => pattern.test(n));
}

describe('shard folder names', () => {
  it("DAY_NAME takes format 3's day folders, with years of four or five digits and months and days in range", () => {
    expect(accepted(DAY_NAME, ['2026-11-29', '10889-12-31', '0000-00-00', '2026-12-30', '2026-13-01', '2026-11-32', '2026-11-40', '2026-1-29', '2026-11-9',
      '226-11-29', '202611-11-29', '2026/11/29', '2026', '2026-11-29/x', '2026-11-29\n', '..'])).toEqual(['2026-11-29', '10889-12-31', '0000-00-00', '2026-12-30']);
  });

  it("YEAR_NAME takes the year folders of formats 1 and 2, four or five digits", () => {
    expect(accepted(YEAR_NAME, ['2026', '10889', '0000', '202', '202611', '2026-11-29', '20a6', ' 2026', '2026\n', '..'])).toEqual(['2026', '10889', '0000']);
  });

  it("MONTH_NAME takes the month folders of formats 1 and 2, 00 to 12", () => {
    expect(accepted(MONTH_NAME, ['00', '01', '09', '10', '12', '13', '20', '1', '001', '1a', '12\n'])).toEqual(['00', '01', '09', '10', '12']);
  });

  it("DAY_OF_MONTH_NAME takes format 2's day folders, 00 to 31", () => {
    expect(accepted(DAY_OF_MONTH_NAME, ['00', '09', '19', '29', '30', '31', '32', '40', '1', '010', '3a', '31\n'])).toEqual(['00', '09', '19', '29', '30', '31']);
  });
});
