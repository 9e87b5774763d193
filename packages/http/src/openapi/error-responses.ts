import { ERROR_CODES, type ErrorCode } from '@travelops/domain';
import * as v from 'valibot';
import { statusForCode } from '../errors.js';

export const ErrorSchema = v.object({
  code: v.picklist(ERROR_CODES),
  message: v.string(),
  details: v.optional(v.array(v.object({ field: v.string(), issue: v.string() }))),
  requestId: v.optional(v.string()),
});

export const ErrorEnvelopeSchema = v.object({ error: ErrorSchema });

interface ErrorResponse {
  /** Its name under `components/responses`. */
  name: string;
  /** When a caller gets it; the document prefixes the code. */
  meaning: string;
}

/** Each code's response, at the status `statusForCode` gives it: a new code fails typecheck until described. */
const RESPONSE_OF_CODE: Record<ErrorCode, ErrorResponse> = {
  VALIDATION_ERROR: {
    name: 'BadRequest',
    meaning: 'malformed or invalid input; `details` names each field.',
  },
  UNAUTHENTICATED: {
    name: 'Unauthenticated',
    meaning:
      'missing, malformed, unknown, expired or revoked token or session, including one revoked while this request ran (its write rolled back).',
  },
  FORBIDDEN: {
    name: 'Forbidden',
    meaning:
      'another workspace, a role without the needed permission, an API token on a session-only operation, or a session write without a valid `X-CSRF-Token`.',
  },
  NOT_FOUND: { name: 'NotFound', meaning: 'no such record in this workspace.' },
  CONFLICT: {
    name: 'Conflict',
    meaning: 'a unique value is taken, capacity is exhausted, or a concurrent change won.',
  },
  UNPROCESSABLE: {
    name: 'Unprocessable',
    meaning: 'valid shape, but the business state does not allow it.',
  },
  RATE_LIMITED: {
    name: 'RateLimited',
    meaning:
      'the rate limit of this credential (or client IP) is spent; wait `Retry-After` seconds, then back off exponentially.',
  },
  INTERNAL_ERROR: {
    name: 'InternalError',
    meaning: 'a fault of the service; retry with exponential backoff.',
  },
};

/** The body reader answers these statuses with a code whose usual status is another (`HttpError`). */
const OTHER_STATUSES: Array<ErrorResponse & { status: number; code: ErrorCode }> = [
  {
    status: 413,
    code: 'VALIDATION_ERROR',
    name: 'PayloadTooLarge',
    meaning: 'the body is larger than 1 MB.',
  },
  {
    status: 415,
    code: 'VALIDATION_ERROR',
    name: 'UnsupportedMediaType',
    meaning: 'the body is not `application/json`.',
  },
];

/** The documented error responses by status (ascending, as integer keys iterate). */
export const ERROR_RESPONSES: Record<number, { name: string; description: string }> = Object.fromEntries(
  [
    ...ERROR_CODES.map((code) => ({ status: statusForCode(code), code, ...RESPONSE_OF_CODE[code] })),
    ...OTHER_STATUSES,
  ].map(({ status, code, name, meaning }) => [status, { name, description: `${code}: ${meaning}` }]),
);
