import { describe, expect, it } from 'vitest';
import { checkResourceFree, resourceFull, sharedSeatsRefusal } from './resource-rules.js';

const busy = [{ id: 'avl_other', tourId: 'tour_1', startsAt: '2031-05-01T10:00:00.000Z' }];
const resource = { id: 'res_1', name: 'Marlin', active: true } as const;

describe('checkResourceFree', () => {
  const issue = (r: ReturnType<typeof checkResourceFree>) => (r.ok ? 'ok' : r.error.details?.[0]?.issue);
  it.each([
    ['EXCLUSIVE, nothing overlapping', { ...resource, sharing: 'EXCLUSIVE' }, [], 'ok'],
    [
      'EXCLUSIVE, another departure overlapping',
      { ...resource, sharing: 'EXCLUSIVE' },
      busy,
      'resource_double_booked',
    ],
    ['SHARED_SEATS, another departure overlapping', { ...resource, sharing: 'SHARED_SEATS' }, busy, 'ok'],
    ['inactive', { ...resource, sharing: 'SHARED_SEATS', active: false }, [], 'resource_unavailable'],
  ] as const)('%s: %s', (_case, r, overlapping, expected) => {
    expect(issue(checkResourceFree(r, overlapping))).toBe(expected);
  });
  it('names the other departure in its message', () => {
    const refused = checkResourceFree({ ...resource, sharing: 'EXCLUSIVE' }, busy);
    expect(refused.ok ? '' : refused.error.message).toContain('avl_other');
  });
});

describe('sharedSeatsRefusal', () => {
  const shared = (seatsLeft: number) => ({ resourceId: 'res_1', seatsLeft });
  it.each([
    ['no shared resource', null, 2, 10, false],
    ['the boat has room', shared(4), 2, 10, false],
    ['the boat is tighter than the departure', shared(1), 2, 10, true],
    ['the departure is as tight: its own 409', shared(1), 2, 1, false],
    ['the departure is tighter', shared(3), 4, 2, false],
  ] as const)('%s', (_case, seats, count, departureLeft, refused) => {
    expect(sharedSeatsRefusal(seats, count, departureLeft) !== null).toBe(refused);
  });
  it('is 409 CONFLICT naming the resource', () => {
    expect(resourceFull(shared(-1))).toMatchObject({
      code: 'CONFLICT',
      details: [{ field: 'availabilityId', issue: 'resource_full', resourceId: 'res_1' }],
    });
  });
});
