import { describe, expect, it } from 'vitest';
import { escapeIcsText, foldIcsLine, icsDateTime, toIcs } from './calendar-file.js';

const octets = (text: string) => new TextEncoder().encode(text).length;

/** Undoes §3.1 folding: CRLF followed by one space joins the lines again. */
const unfold = (ics: string) => ics.replace(/\r\n /g, '');

describe('escapeIcsText', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b;c', 'a\\,b\\;c'],
    ['back\\slash', 'back\\\\slash'],
    ['two\nlines\r\nand\rthree', 'two\\nlines\\nand\\nthree'],
    ['bell\u0007 and tab\t', 'bell and tab\t'],
    ['BEGIN:VEVENT\r\nX:1', 'BEGIN:VEVENT\\nX:1'],
  ])('%j -> %j', (input, expected) => {
    expect(escapeIcsText(input)).toBe(expected);
  });
});

describe('foldIcsLine', () => {
  it('leaves a line of 75 octets alone and folds one of 76', () => {
    expect(foldIcsLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldIcsLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('never splits a UTF-8 character and keeps every physical line within 75 octets', () => {
    const line = `SUMMARY:${'Führung über den Fjord 🌊 '.repeat(12)}`;
    const folded = foldIcsLine(line);
    for (const physical of folded.split('\r\n')) expect(octets(physical)).toBeLessThanOrEqual(75);
    expect(unfold(folded)).toBe(line);
  });
});

describe('toIcs', () => {
  const event = {
    uid: 'bkg_1@travelops.example',
    stamp: new Date('2031-03-01T10:00:00.000Z'),
    start: new Date('2031-03-14T18:30:00.000Z'),
    end: new Date('2031-03-14T20:00:00.000Z'),
    summary: 'Night walk, old town; "lanterns"',
    location: 'Old Bridge\nnorth side',
    description: 'Booking bkg_1\n2 participants',
    status: 'CONFIRMED' as const,
    sequence: 3,
  };

  it('is one VEVENT in a VCALENDAR with CRLF line ends and UTC times', () => {
    const ics = toIcs(event);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(ics).trimEnd().split('\r\n');
    expect(lines).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//TravelOps//Guest e-mails//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
      'UID:bkg_1@travelops.example',
      'DTSTAMP:20310301T100000Z',
      'DTSTART:20310314T183000Z',
      'DTEND:20310314T200000Z',
      'SEQUENCE:3',
      'SUMMARY:Night walk\\, old town\\; "lanterns"',
      'LOCATION:Old Bridge\\nnorth side',
      'DESCRIPTION:Booking bkg_1\\n2 participants',
      'STATUS:CONFIRMED',
      'TRANSP:OPAQUE',
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
  });

  it('a hostile summary cannot add a property or end the event early', () => {
    const ics = toIcs({
      ...event,
      summary: 'x\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:evil',
      location: null,
    });
    const lines = unfold(ics).split('\r\n');
    expect(lines.filter((line) => line === 'END:VEVENT')).toHaveLength(1);
    expect(lines.some((line) => line.startsWith('LOCATION'))).toBe(false);
  });

  it('writes UTC date-times without milliseconds', () => {
    expect(icsDateTime(new Date('2030-01-02T03:04:05.678Z'))).toBe('20300102T030405Z');
  });
});
