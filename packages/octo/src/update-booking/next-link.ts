import type { ResellerBookingLink } from '@travelops/domain/bookings';
import { toOctoContact } from '../booking-mapping.js';
import type { OctoUpdateInput } from '../schemas.js';

/** The link after the update: the contact and reseller reference sent replace the stored ones. */
export function nextLink(
  link: ResellerBookingLink,
  input: Pick<OctoUpdateInput, 'contact' | 'resellerReference'>,
): ResellerBookingLink {
  return {
    ...link,
    ...(input.contact && { contact: toOctoContact(input.contact) }),
    ...(input.resellerReference !== undefined && { resellerReference: input.resellerReference }),
  };
}
