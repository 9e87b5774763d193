import { ERROR_CODES, type ErrorCode } from '@travelops/domain/shared';
import * as v from 'valibot';
import { statusForCode } from '../errors.js';

export const ErrorSchema = v.object({
  code: v.picklist(ERROR_CODES),
  message: v.string(),
  details: v.optional(
    v.array(
      v.object({
        field: v.string(),
        issue: v.string(),
        /** `resource_full`: the shared resource that has no seats left (docs/resources.md). */
        resourceId: v.optional(v.string()),
        /** `below_sold`, `resource_in_use`: the departures concerned. */
        availabilityIds: v.optional(v.array(v.string())),
      }),
    ),
  ),
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
export const ERROR_RESPONSES: Record<number, { name: string; description: string; code: ErrorCode }> =
  Object.fromEntries(
    [
      ...ERROR_CODES.map((code) => ({ status: statusForCode(code), code, ...RESPONSE_OF_CODE[code] })),
      ...OTHER_STATUSES,
    ].map(({ status, code, name, meaning }) => [status, { name, code, description: `${code}: ${meaning}` }]),
  );

type ErrorBody = Omit<v.InferOutput<typeof ErrorSchema>, 'code' | 'requestId'>;

/** What a caller typically reads at each status (the envelope exactly as sent). */
const EXAMPLE_BODIES: Record<number, ErrorBody> = {
  400: {
    message: 'The request is invalid.',
    details: [
      { field: 'customer.email', issue: 'invalid_email' },
      { field: 'participants', issue: 'too_short' },
    ],
  },
  401: { message: 'Missing or invalid credential.' },
  403: { message: 'This credential may not do that in this workspace.' },
  404: { message: 'No such booking.' },
  409: {
    message: 'Not enough seats left on this departure.',
    details: [{ field: 'participants', issue: 'insufficient_seats' }],
  },
  413: { message: 'The body is larger than 1 MB.', details: [{ field: 'body', issue: 'too_large' }] },
  415: {
    message: 'Send the body as application/json.',
    details: [{ field: 'Content-Type', issue: 'unsupported_media_type' }],
  },
  422: {
    message: 'This booking cannot move to that status.',
    details: [{ field: 'status', issue: 'invalid_transition' }],
  },
  429: { message: 'Rate limit exceeded: retry after 42 seconds.' },
  500: { message: 'An internal error occurred.' },
};

/** The example of an error response at `status`, in the envelope every error uses. */
export function errorExample(status: number): v.InferOutput<typeof ErrorEnvelopeSchema> {
  const response = ERROR_RESPONSES[status];
  const body = EXAMPLE_BODIES[status];
  if (!response || !body) throw new Error(`no error example for status ${status}`);
  return { error: { code: response.code, ...body, requestId: 'req_4Xk9TzQ2mB7rW1pLs8YvNc' } };
}
