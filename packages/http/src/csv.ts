/**
 * What makes a spreadsheet read a cell as a formula (OWASP, "CSV injection"): `=`, `+`, `-`,
 * `@` (or their full-width forms) first, after any leading white space, or a tab or carriage
 * return first. Invisible format characters (Unicode category Cf: U+200B, U+FEFF, U+200E...)
 * count as nothing, since a spreadsheet may drop them and read what follows.
 */
const FORMULA = /^[\s\u3000\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^\p{Cf}*[\t\r]/u;

/**
 * One CSV cell: a would-be formula gets a leading `'` (shown as text, never run), and every
 * cell is quoted with its quotes doubled (RFC 4180), so no separator, quote or line break in
 * the text can start a new cell, whatever separator the spreadsheet's locale expects.
 */
export function csvCell(text: string): string {
  const inert = FORMULA.test(text) ? `'${text}` : text;
  return `"${inert.replaceAll('"', '""')}"`;
}

/** RFC 4180 text of the rows (the first is the header): CRLF after every record. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
