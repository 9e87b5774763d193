import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from '../../shared/enums.js';
import { aBooking } from '../test-fixtures.js';
import { checkChangeable } from './check-changeable.js';

describe('checkChangeable', () => {
  it.each(BOOKING_STATUSES.map((status) => [status, status === 'PENDING' || status === 'CONFIRMED']))(
    'a %s booking may change: %s',
    (status, changes) => {
      const result = checkChangeable(aBooking({ status }), undefined);
      expect(result.ok ? 'ok' : result.error.details).toEqual(
        changes ? 'ok' : [{ field: 'status', issue: 'invalid_state' }],
      );
    },
  );

  it.each([
    [undefined, 'ok'],
    [3, 'ok'],
    [2, 'stale'],
  ] as const)('If-Match %s on version 3: %s', (ifMatch, answer) => {
    const result = checkChangeable(aBooking({ version: 3 }), ifMatch);
    expect(result.ok ? 'ok' : result.error).toEqual(
      answer === 'ok'
        ? 'ok'
        : {
            code: 'CONFLICT',
            message: 'The booking changed since you read it (If-Match).',
            details: [{ field: 'If-Match', issue: 'stale' }],
          },
    );
  });

  it('a stale version is told before the state', () => {
    const result = checkChangeable(aBooking({ version: 3, status: 'CANCELLED' }), 2);
    expect(result.ok ? null : result.error.code).toBe('CONFLICT');
  });
});
