/** The closed set of error codes of the interface (spec, "Errors"). */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'UNPROCESSABLE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  field: string;
  issue: string;
  /** The resource a `resource_full` refusal is about (docs/resources.md). */
  resourceId?: string;
  /** The departures a `below_sold` or `resource_in_use` refusal is about. */
  availabilityIds?: string[];
}

export interface DomainError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  /** For RATE_LIMITED: when the caller may try again (the adapter's `Retry-After`). */
  retryAfterSeconds?: number;
  /**
   * A race lost inside the transaction (locks taken in an order that cannot continue): the
   * owner of the transaction may roll it back and run the whole work again. Only for failures
   * found before any effect outside the database (a refund, an e-mail).
   */
  retryable?: boolean;
}

const withDetail = (code: ErrorCode, message: string, field?: string, issue?: string): DomainError =>
  field && issue ? { code, message, details: [{ field, issue }] } : { code, message };

export const validationError = (message: string, details: ErrorDetail[]): DomainError => ({
  code: 'VALIDATION_ERROR',
  message,
  details,
});

export const notFound = (resource: string): DomainError => ({
  code: 'NOT_FOUND',
  message: `No such ${resource} in this workspace.`,
});

export const forbidden = (message: string, field?: string, issue?: string): DomainError =>
  withDetail('FORBIDDEN', message, field, issue);

export const conflict = (message: string, field?: string, issue?: string): DomainError =>
  withDetail('CONFLICT', message, field, issue);

export const unprocessable = (message: string, field?: string, issue?: string): DomainError =>
  withDetail('UNPROCESSABLE', message, field, issue);

export const rateLimitedError = (message: string, retryAfterSeconds: number): DomainError => ({
  code: 'RATE_LIMITED',
  message,
  retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
});
