import type { ResellerBookingRecord } from '@travelops/domain/bookings';
import type { Tour } from '@travelops/domain/catalog';
import { ok, type Result } from '@travelops/domain/shared';
import type { PlannedUnitItem } from '../booking-mapping.js';
import { type OctoError, unprocessableEntity } from '../errors.js';
import type { OctoUnitItemInput } from '../schemas.js';
import { movedUnitItems, planUnitItems } from '../unit-item-plans.js';

/**
 * The unit items the update writes: those sent; else, on a change of product, the current
 * participants on the new product's units; else none (null: the participants stay).
 */
export function planUnitItemChange(args: {
  record: Pick<ResellerBookingRecord, 'booking' | 'link'>;
  current: Tour;
  tour: Tour;
  asked: readonly OctoUnitItemInput[] | undefined;
}): Result<PlannedUnitItem[] | null, OctoError> {
  const { record, current, tour, asked } = args;
  if (asked?.length === 0) return unprocessableEntity('unitItems must name at least one unit.');
  let items: readonly OctoUnitItemInput[] | null = asked ?? null;
  if (!items && tour.id !== current.id) {
    const moved = movedUnitItems(record, current, tour);
    if (!moved.ok) return moved;
    items = moved.value;
  }
  return items ? planUnitItems(tour, items, record) : ok(null);
}
