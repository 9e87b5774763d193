import { ERROR_CODES } from '@travelops/domain/shared';
import { describe, expect, it } from 'vitest';
import type { OctoError, OctoFailure } from '../errors.js';
import { toOctoError } from './errors.js';

const octo: [OctoError, number, Record<string, string>][] = [
  [{ code: 'INVALID_PRODUCT_ID', message: 'm', productId: 'p' }, 400, { productId: 'p' }],
  [{ code: 'INVALID_OPTION_ID', message: 'm', optionId: 'o' }, 400, { optionId: 'o' }],
  [{ code: 'INVALID_UNIT_ID', message: 'm', unitId: 'u' }, 400, { unitId: 'u' }],
  [{ code: 'INVALID_AVAILABILITY_ID', message: 'm', availabilityId: 'a' }, 400, { availabilityId: 'a' }],
  [{ code: 'INVALID_BOOKING_UUID', message: 'm', uuid: 'x' }, 400, { uuid: 'x' }],
  [{ code: 'BAD_REQUEST', message: 'm' }, 400, {}],
  [{ code: 'UNPROCESSABLE_ENTITY', message: 'm' }, 400, {}],
];

/** The booking use cases' failures as OCTO names them. */
const DOMAIN: Record<(typeof ERROR_CODES)[number], [number, string]> = {
  VALIDATION_ERROR: [400, 'UNPROCESSABLE_ENTITY'],
  UNPROCESSABLE: [400, 'UNPROCESSABLE_ENTITY'],
  CONFLICT: [400, 'UNPROCESSABLE_ENTITY'],
  UNAUTHENTICATED: [401, 'UNAUTHORIZED'],
  FORBIDDEN: [403, 'FORBIDDEN'],
  NOT_FOUND: [404, 'NOT_FOUND'],
  RATE_LIMITED: [429, 'TOO_MANY_REQUESTS'],
  INTERNAL_ERROR: [500, 'INTERNAL_SERVER_ERROR'],
};

describe('OCTO errors', () => {
  it.each(octo)('$code: %i with its id', (failure, status, ids) => {
    expect(toOctoError(failure)).toEqual({
      status,
      body: { error: failure.code, errorMessage: 'm', ...ids },
    });
  });

  it.each(ERROR_CODES.map((code) => [code, ...DOMAIN[code]] as const))(
    'a use case failure %s is %i %s, with its message',
    (code, status, error) => {
      const failure: OctoFailure = { code, message: 'Only 2 seats remain on this departure.' };
      expect(toOctoError(failure)).toEqual({
        status,
        body: { error, errorMessage: 'Only 2 seats remain on this departure.' },
      });
    },
  );
});
