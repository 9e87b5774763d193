import * as v from 'valibot';

/** Strings never carry NUL: PostgreSQL rejects it and no human text needs it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this pattern rejects.
const NO_NUL = /^[^\u0000]*$/;

/** Free text of at most `max` characters (issue codes: too_long, contains_nul). */
export const text = (max: number) => v.pipe(v.string(), v.maxLength(max), v.regex(NO_NUL, 'contains_nul'));

/** Required, non-blank text. */
export const requiredText = (max: number) =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(max),
    v.regex(NO_NUL, 'contains_nul'),
    v.regex(/\S/, 'blank'),
  );

export const EmailSchema = v.pipe(v.string(), v.maxLength(254), v.email());
export const PhoneSchema = v.pipe(
  v.string(),
  v.maxLength(40),
  v.regex(/^[0-9+()\-. ]{3,40}$/, 'invalid_phone'),
);
export const SlugSchema = v.pipe(
  v.string(),
  v.maxLength(100),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'invalid_slug'),
);
export const CurrencySchema = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'invalid_currency'));

/** Amounts in minor units up to 10^12 keep every sum a safe integer. */
const MAX_AMOUNT = 1_000_000_000_000;
export const AmountSchema = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_AMOUNT));

/** True when `YYYY-MM-DD` names a real day: JavaScript would roll 2026-02-30 into March. */
function isRealDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

/**
 * A date-time as sent by clients: RFC 3339 with an offset or Z. The check looks only at
 * well-shaped values (a malformed one gets one issue, never a throw) and refuses days that
 * do not exist and offsets JavaScript cannot read (`+05`).
 */
export const DateTimeInputSchema = v.pipe(
  v.string(),
  v.maxLength(40),
  v.isoTimestamp(),
  v.check(
    (s) => !v.ISO_TIMESTAMP_REGEX.test(s) || (!Number.isNaN(Date.parse(s)) && isRealDay(s.slice(0, 10))),
    'invalid_date',
  ),
);

/** A date-time as the service answers: UTC, milliseconds, `Z`. */
export const DateTimeSchema = v.pipe(v.string(), v.isoTimestamp());

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
export const DateSchema = v.pipe(
  v.string(),
  v.isoDate(),
  // valibot runs the whole pipe: the check must not throw on what isoDate already refused.
  v.check((s) => !v.ISO_DATE_REGEX.test(s) || isRealDay(s), 'invalid_date'),
);

export const LimitSchema = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100));
export const DEFAULT_LIMIT = 25;
export const CursorSchema = v.pipe(v.string(), v.maxLength(1000));

export const PaginationSchema = v.object({
  hasMore: v.boolean(),
  nextCursor: v.nullable(v.string()),
});
export type Pagination = v.InferOutput<typeof PaginationSchema>;

/** Query of every list operation. */
export const PageQuerySchema = v.object({
  limit: v.optional(LimitSchema),
  cursor: v.optional(CursorSchema),
});
