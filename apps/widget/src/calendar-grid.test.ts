import { describe, expect, it } from 'vitest';
import { addDays, addMonths, monthRange, monthWeeks } from './calendar-grid.js';

describe('calendar arithmetic', () => {
  it.each([
    ['2031-01', 1, '2031-02'],
    ['2031-12', 1, '2032-01'],
    ['2031-01', -1, '2030-12'],
    ['2031-03', 12, '2032-03'],
  ])('addMonths(%s, %i) = %s', (month, n, expected) => {
    expect(addMonths(month, n)).toBe(expected);
  });

  it.each([
    ['2031-02', '2031-02-01', '2031-02-28'],
    ['2032-02', '2032-02-01', '2032-02-29'],
    ['2031-12', '2031-12-01', '2031-12-31'],
  ])('monthRange(%s) = %s..%s', (month, from, to) => {
    expect(monthRange(month)).toEqual({ from, to });
  });

  it('addDays crosses months, years and the daylight-saving change without moving a day', () => {
    expect(addDays('2031-03-30', 1)).toBe('2031-03-31');
    expect(addDays('2031-12-31', 1)).toBe('2032-01-01');
    expect(addDays('2031-03-01', -1)).toBe('2031-02-28');
  });

  it('weeks run Monday to Sunday, with blanks around the month', () => {
    // March 2031 starts on a Saturday and has 31 days.
    const weeks = monthWeeks('2031-03');
    expect(weeks[0]).toEqual([null, null, null, null, null, '2031-03-01', '2031-03-02']);
    expect(weeks.at(-1)).toEqual(['2031-03-31', null, null, null, null, null, null]);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
    expect(weeks.every((week) => week.length === 7)).toBe(true);
  });
});
