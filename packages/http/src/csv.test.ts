import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.js';

describe('csvCell: quoted (RFC 4180), formulas neutralised (OWASP)', () => {
  it.each([
    ['plain text', 'Ada Lovelace', '"Ada Lovelace"'],
    ['empty', '', '""'],
    ['a comma stays inside the cell', 'Lovelace, Ada', '"Lovelace, Ada"'],
    ['quotes are doubled', 'say "hi"', '"say ""hi"""'],
    ['a line break stays inside the cell', 'line 1\r\nline 2\nline 3', '"line 1\r\nline 2\nline 3"'],
    ['= starts a formula', '=1+1', `"'=1+1"`],
    ['+ starts a formula', '+1', `"'+1"`],
    ['- starts a formula', '-2+3', `"'-2+3"`],
    ['@ starts a formula', '@SUM(A1)', `"'@SUM(A1)"`],
    ['a tab first', '\t=1', `"'\t=1"`],
    ['a carriage return first', '\r=1', `"'\r=1"`],
    ['white space before =', '  =1+1', `"'  =1+1"`],
    ['a full-width equals sign', '\uFF1D1+1', `"'\uFF1D1+1"`],
    ['a zero-width space before =', '\u200B=1+1', `"'\u200B=1+1"`],
    ['a byte order mark before +', '\uFEFF+1', `"'\uFEFF+1"`],
    ['a left-to-right mark before -', '\u200E-2+3', `"'\u200E-2+3"`],
    ['a word joiner and a soft hyphen before @', '\u2060\u00AD@SUM(A1)', `"'\u2060\u00AD@SUM(A1)"`],
    ['format characters and white space before =', '\u200B \u200F=1', `"'\u200B \u200F=1"`],
    ['a zero-width space before a tab', '\u200B\t=1', `"'\u200B\t=1"`],
    ['a zero-width space before text is harmless', '\u200BAda', '"\u200BAda"'],
    [
      'a formula with quotes: neutralised, then quotes doubled',
      '=HYPERLINK("http://x","y")',
      `"'=HYPERLINK(""http://x"",""y"")"`,
    ],
    ['a phone number with + is shown as text too', '+44 20 7946 0000', `"'+44 20 7946 0000"`],
    ['= in the middle is harmless', 'a=b', '"a=b"'],
    ['a comma then = stays in one quoted cell', 'x,=1+1', '"x,=1+1"'],
  ])('%s', (_name, text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });
});

describe('toCsv', () => {
  it('a header row, then records, each ending in CRLF', () => {
    expect(
      toCsv([
        ['name', 'note'],
        ['Ada', '=1+1'],
        ['Bo', 'a, "b"\nc'],
      ]),
    ).toBe('"name","note"\r\n"Ada","\'=1+1"\r\n"Bo","a, ""b""\nc"\r\n');
  });

  it('no rows: no text', () => {
    expect(toCsv([])).toBe('');
  });
});
