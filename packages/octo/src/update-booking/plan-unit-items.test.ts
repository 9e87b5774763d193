import type { ResellerBookingLink } from '@travelops/domain/bookings';
import { describe, expect, it } from 'vitest';
import { booking, person, tour } from '../testing/fixtures.js';
import { planUnitItemChange } from './plan-unit-items.js';

const UUID = '0b4a7c1e-5f1d-4d7e-9a3b-1c2d3e4f5a6b';
const link: ResellerBookingLink = {
  bookingId: 'bkg_1',
  workspaceId: 'ws_1',
  connectionId: 'tok_1',
  uuid: 'res-1',
  resellerReference: null,
  contact: null,
  unitItems: [{ participantId: person().id, uuid: UUID, resellerReference: 'R-1', contact: null }],
};
const record = { booking: booking(), link };

describe('planUnitItemChange', () => {
  it('keeps the participants when no unit item is sent and the product stays', () => {
    expect(planUnitItemChange({ record, current: tour(), tour: tour(), asked: undefined })).toEqual({
      ok: true,
      value: null,
    });
  });

  it('refuses an empty list of unit items', () => {
    const result = planUnitItemChange({ record, current: tour(), tour: tour(), asked: [] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('UNPROCESSABLE_ENTITY');
  });

  it('plans the unit items sent, the one with a known uuid being that participant', () => {
    const result = planUnitItemChange({
      record,
      current: tour(),
      tour: tour(),
      asked: [{ uuid: UUID, unitId: 'tt_s' }, { unitId: 'tt_a' }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok || !result.value) return;
    expect(result.value.map((item) => item.unit.ticketTypeId)).toEqual(['tt_s', 'tt_a']);
    expect(result.value[0]?.existing?.id).toBe(person().id);
    expect(result.value[0]?.input.resellerReference).toBe('R-1');
    expect(result.value[1]?.existing).toBeUndefined();
  });

  it("moves the participants onto the new product's unit of their band when none are sent", () => {
    const other = tour({ id: 'tour_2', ticketTypes: [{ ...tour().ticketTypes[0]!, id: 'tt_other_adult' }] });
    const result = planUnitItemChange({ record, current: tour(), tour: other, asked: undefined });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value?.map((item) => item.unit.ticketTypeId)).toEqual(['tt_other_adult']);
  });

  it('refuses a move to a product that sells no unit of a participant’s band', () => {
    const childOnly = tour({ id: 'tour_3', ticketTypes: [tour().ticketTypes[2]!] });
    const result = planUnitItemChange({ record, current: tour(), tour: childOnly, asked: undefined });
    expect(result.ok).toBe(false);
  });
});
