/** Calendar arithmetic on plain local dates (`YYYY-MM-DD`) and months (`YYYY-MM`), in UTC so no zone moves a day. */

const pad = (n: number) => String(n).padStart(2, '0');
const toDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const parts = (month: string) => month.split('-').map(Number) as [number, number];

export const monthOf = (date: string): string => date.slice(0, 7);

export function addMonths(month: string, n: number): string {
  const [year, m] = parts(month);
  const d = new Date(Date.UTC(year, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return toDate(d);
}

/** The first and last day of the month, for the calendar's `from` and `to`. */
export function monthRange(month: string): { from: string; to: string } {
  const [year, m] = parts(month);
  return { from: `${month}-01`, to: toDate(new Date(Date.UTC(year, m, 0))) };
}

/** The month as weeks from Monday to Sunday; days outside it are null. */
export function monthWeeks(month: string): (string | null)[][] {
  const { from, to } = monthRange(month);
  const first = new Date(`${from}T00:00:00Z`);
  const lead = (first.getUTCDay() + 6) % 7; // Monday = 0
  const days: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  while (days.length % 7 !== 0) days.push(null);
  return Array.from({ length: days.length / 7 }, (_, w) => days.slice(w * 7, w * 7 + 7));
}
