import type { Response } from 'express';
import type { OctoFailure } from '../errors.js';

/** OCTO's error body: its code, a message, and the id it refuses when there is one. */
interface OctoErrorBody {
  error: string;
  errorMessage: string;
  productId?: string;
  optionId?: string;
  unitId?: string;
  availabilityId?: string;
  uuid?: string;
}

/**
 * The one place an OCTO failure becomes a status and a body. OCTO answers every refusal of a
 * request with 400 (an unknown id, a bad request, one it cannot process: sold out, past the
 * cutoff, a ticket rule), credentials with 401 UNAUTHORIZED and 403 FORBIDDEN. The booking use
 * cases' failures are OCTO's UNPROCESSABLE_ENTITY, with their message (a malformed request
 * never reaches them: the adapter answers it BAD_REQUEST).
 */
export function toOctoError(failure: OctoFailure): { status: number; body: OctoErrorBody } {
  const body = (error: string): OctoErrorBody => ({ error, errorMessage: failure.message });
  switch (failure.code) {
    case 'INVALID_PRODUCT_ID':
      return { status: 400, body: { ...body(failure.code), productId: failure.productId } };
    case 'INVALID_OPTION_ID':
      return { status: 400, body: { ...body(failure.code), optionId: failure.optionId } };
    case 'INVALID_UNIT_ID':
      return { status: 400, body: { ...body(failure.code), unitId: failure.unitId } };
    case 'INVALID_AVAILABILITY_ID':
      return { status: 400, body: { ...body(failure.code), availabilityId: failure.availabilityId } };
    case 'INVALID_BOOKING_UUID':
      return { status: 400, body: { ...body(failure.code), uuid: failure.uuid } };
    case 'BAD_REQUEST':
      return { status: 400, body: body('BAD_REQUEST') };
    // A ticket rule (at least 2 adults...) is OCTO's "Validation failed": a business refusal.
    case 'VALIDATION_ERROR':
    case 'UNPROCESSABLE_ENTITY':
    case 'UNPROCESSABLE':
    case 'CONFLICT':
      return { status: 400, body: body('UNPROCESSABLE_ENTITY') };
    case 'UNAUTHENTICATED':
      return { status: 401, body: body('UNAUTHORIZED') };
    case 'FORBIDDEN':
      return { status: 403, body: body('FORBIDDEN') };
    case 'NOT_FOUND':
      return { status: 404, body: body('NOT_FOUND') };
    case 'RATE_LIMITED':
      return { status: 429, body: body('TOO_MANY_REQUESTS') };
    case 'INTERNAL_ERROR':
      return { status: 500, body: body('INTERNAL_SERVER_ERROR') };
  }
}

/** Writes the failure in OCTO's shape (`Retry-After` with a rate limit's). */
export function sendOctoError(res: Response, failure: OctoFailure, status?: number): void {
  const written = toOctoError(failure);
  if ('retryAfterSeconds' in failure && failure.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(failure.retryAfterSeconds));
  }
  res.status(status ?? written.status).json(written.body);
}
