import { minorUnitDigits } from '@travelops/client';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatMoney,
  localDate,
  localTime,
  moneyInput,
  parseMoney,
  startOfWeek,
  zonedToUtc,
} from './format.js';

describe('money in the tour currency', () => {
  it.each([
    [12500, 'EUR', '€125.00'],
    [0, 'USD', '$0.00'],
    [1500, 'JPY', '¥1,500'],
    // ISO 4217's minor unit, the server's table: the browser's CLDR data shows these with none.
    [1500, 'IQD', 'IQD\u00a01.500'],
    [150000, 'HUF', 'HUF\u00a01,500.00'],
  ])('%i %s reads %s', (minor, currency, text) => {
    expect(formatMoney(minor, currency, 'en-US')).toBe(text);
  });
  it("shows, reads and edits every code the API accepts with the server's digits", () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const codes = [...letters].flatMap((a) =>
      [...letters].flatMap((b) => [...letters].map((c) => a + b + c)),
    );
    const off = codes.filter((currency) => {
      const digits = minorUnitDigits(currency);
      const shown = formatMoney(1_234_567, currency, 'en-US');
      return (
        (/\.(\d+)/.exec(shown)?.[1] ?? '').length !== digits ||
        shown.replace(/\D/g, '') !== '1234567' ||
        parseMoney(moneyInput(1_234_567, currency), currency) !== 1_234_567
      );
    });
    expect(off).toEqual([]);
  });
  it.each([
    ['40', 'EUR', 4000],
    ['12,5', 'EUR', 1250],
    ['1500', 'JPY', 1500],
    ['abc', 'EUR', null],
    ['-3', 'EUR', null],
  ])('"%s" %s is %s minor units', (text, currency, minor) => {
    expect(parseMoney(text, currency)).toBe(minor);
  });
  it('shows minor units as an input value', () => {
    expect(moneyInput(4000, 'EUR')).toBe('40.00');
  });
});

describe('times in the tour time zone', () => {
  it.each([
    ['2030-07-01', '09:00', 'Europe/Berlin', '2030-07-01T07:00:00.000Z'],
    ['2030-01-15', '09:00', 'Europe/Berlin', '2030-01-15T08:00:00.000Z'],
    ['2030-07-01', '23:30', 'America/New_York', '2030-07-02T03:30:00.000Z'],
    ['2030-07-01', '09:00', 'UTC', '2030-07-01T09:00:00.000Z'],
    // The spring-forward gap moves on by the gap; a repeated hour is its first occurrence.
    ['2030-03-31', '02:30', 'Europe/Berlin', '2030-03-31T01:30:00.000Z'],
    ['2030-10-27', '02:30', 'Europe/Berlin', '2030-10-27T00:30:00.000Z'],
  ])('%s %s in %s is %s', (day, time, zone, instant) => {
    expect(zonedToUtc(day, time, zone).toISOString()).toBe(instant);
  });
  it('reads an instant back as local day and time', () => {
    expect(localDate('2030-07-02T03:30:00Z', 'America/New_York')).toBe('2030-07-01');
    expect(localTime('2030-07-02T03:30:00Z', 'America/New_York')).toBe('23:30');
  });
  it('walks days and weeks', () => {
    expect(addDays('2030-12-31', 1)).toBe('2031-01-01');
    expect(startOfWeek('2030-07-04')).toBe('2030-07-01');
    expect(startOfWeek('2030-07-07')).toBe('2030-07-01');
  });
});
