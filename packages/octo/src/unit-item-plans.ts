/**
 * The unit items a reservation, confirmation or update writes, planned before any write:
 * each on one of the tour's units, each uuid once, and a uuid the booking already knows kept
 * as that participant. Pure.
 */
import type { Participant, ResellerBookingRecord } from '@travelops/domain/bookings';
import type { Tour } from '@travelops/domain/catalog';
import { ok, type Result } from '@travelops/domain/shared';
import { derivedUuid, newUuid, type PlannedUnitItem } from './booking-mapping.js';
import { badRequest, type OctoError, unprocessableEntity } from './errors.js';
import { resolveUnits, STANDARD_UNIT_ID } from './product-mapping.js';
import type { OctoUnitItemInput } from './schemas.js';

/** The uuid each current participant is known by: its unit item's, else derived from its id. */
function uuidsOf(record: Pick<ResellerBookingRecord, 'booking' | 'link'>): Map<string, string> {
  const stored = new Map(record.link.unitItems.map((item) => [item.participantId, item.uuid]));
  return new Map(record.booking.participants.map((p) => [p.id, stored.get(p.id) ?? derivedUuid(p.id)]));
}

/**
 * The unit items to write, in order: each on one of the tour's units (else INVALID_UNIT_ID),
 * each uuid once (else BAD_REQUEST); one with the uuid of a current participant is that
 * participant (its details carry over, and what the reseller does not resend is kept).
 */
export function planUnitItems(
  tour: Tour,
  inputs: readonly OctoUnitItemInput[],
  current: Pick<ResellerBookingRecord, 'booking' | 'link'> | null,
): Result<PlannedUnitItem[], OctoError> {
  const units = resolveUnits(
    tour,
    inputs.map((input) => input.unitId),
  );
  if (!units.ok) return units;
  const known = new Map<string, Participant>();
  if (current) {
    const uuids = uuidsOf(current);
    for (const participant of current.booking.participants) {
      known.set(uuids.get(participant.id) as string, participant);
    }
  }
  const kept = new Map((current?.link.unitItems ?? []).map((item) => [item.uuid, item]));
  const seen = new Set<string>();
  const planned: PlannedUnitItem[] = [];
  for (const [index, input] of inputs.entries()) {
    const uuid = input.uuid ?? newUuid();
    if (seen.has(uuid))
      return badRequest(`unitItems[${index}].uuid appears twice: each unit item has its own.`);
    seen.add(uuid);
    const previous = kept.get(uuid);
    const existing = known.get(uuid);
    planned.push({
      unit: units.value[index] as PlannedUnitItem['unit'],
      input: {
        ...input,
        ...(input.resellerReference === undefined &&
          previous?.resellerReference && { resellerReference: previous.resellerReference }),
        ...(input.contact === undefined && previous?.contact && { contact: previous.contact }),
      },
      ...(existing && { existing }),
      uuid,
    });
  }
  return ok(planned);
}

/** The current participants as unit items (same uuids and units), to write them again. */
export function currentUnitItems(
  record: Pick<ResellerBookingRecord, 'booking' | 'link'>,
): OctoUnitItemInput[] {
  const uuids = uuidsOf(record);
  return record.booking.participants.map((p) => ({
    uuid: uuids.get(p.id) as string,
    unitId: p.ticketTypeId ?? STANDARD_UNIT_ID,
  }));
}

/** The current participants on another tour: each on that tour's first unit of its band. */
export function movedUnitItems(
  record: Pick<ResellerBookingRecord, 'booking' | 'link'>,
  from: Tour | null,
  to: Tour,
): Result<OctoUnitItemInput[], OctoError> {
  const uuids = uuidsOf(record);
  const items: OctoUnitItemInput[] = [];
  for (const participant of record.booking.participants) {
    const band =
      participant.ageBand ??
      from?.ticketTypes.find((t) => t.id === participant.ticketTypeId)?.ageBand ??
      'ADULT';
    const unit =
      to.ticketTypes.length === 0
        ? band === 'ADULT'
          ? STANDARD_UNIT_ID
          : undefined
        : to.ticketTypes.find((t) => t.ageBand === band)?.id;
    if (!unit) return unprocessableEntity(`The new product sells no ${band} unit: send unitItems for it.`);
    items.push({ uuid: uuids.get(participant.id) as string, unitId: unit });
  }
  return ok(items);
}
