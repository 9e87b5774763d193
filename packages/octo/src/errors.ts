import type { DomainError } from '@travelops/domain/shared';
import { fail, type Result } from '@travelops/domain/shared';

/**
 * OCTO's own expected failures (its error codes), as values: the OCTO adapter writes them as
 * `{ error, errorMessage, ... }` with OCTO's statuses. Each invalid id is echoed back.
 */
export type OctoError =
  | { code: 'INVALID_PRODUCT_ID'; message: string; productId: string }
  | { code: 'INVALID_OPTION_ID'; message: string; optionId: string }
  | { code: 'INVALID_UNIT_ID'; message: string; unitId: string }
  | { code: 'INVALID_AVAILABILITY_ID'; message: string; availabilityId: string }
  | { code: 'INVALID_BOOKING_UUID'; message: string; uuid: string }
  | { code: 'BAD_REQUEST'; message: string }
  | { code: 'UNPROCESSABLE_ENTITY'; message: string };

/**
 * What an OCTO use case may fail with: an OCTO error, or a failure of the booking use cases
 * underneath (sold out, not bookable, a ticket rule...), which the adapter translates.
 */
export type OctoFailure = OctoError | DomainError;

export type OctoResult<T> = Result<T, OctoFailure>;

export const invalidProduct = (productId: string): Result<never, OctoError> =>
  fail({ code: 'INVALID_PRODUCT_ID', message: 'The productId was missing or invalid.', productId });

export const invalidOption = (optionId: string): Result<never, OctoError> =>
  fail({ code: 'INVALID_OPTION_ID', message: 'The optionId was missing or invalid.', optionId });

export const invalidUnit = (unitId: string): Result<never, OctoError> =>
  fail({ code: 'INVALID_UNIT_ID', message: 'The unitId was missing or invalid.', unitId });

export const invalidAvailability = (availabilityId: string): Result<never, OctoError> =>
  fail({
    code: 'INVALID_AVAILABILITY_ID',
    message: 'The availabilityId was missing or invalid.',
    availabilityId,
  });

export const invalidBookingUuid = (uuid: string): Result<never, OctoError> =>
  fail({ code: 'INVALID_BOOKING_UUID', message: 'No booking of this connection has that uuid.', uuid });

export const badRequest = (message: string): Result<never, OctoError> =>
  fail({ code: 'BAD_REQUEST', message });

export const unprocessableEntity = (message: string): Result<never, OctoError> =>
  fail({ code: 'UNPROCESSABLE_ENTITY', message });
