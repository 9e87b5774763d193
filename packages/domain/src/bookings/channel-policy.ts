import type { PaymentMode } from '../shared/enums.js';

/**
 * Who holds a guest's unpaid booking (an opaque key of its client) and how many unpaid holds
 * that client may keep on one departure at once (issue: holds that cannot be hoarded).
 */
export interface BookingHolder {
  key: string;
  maxLiveHolds: number;
}

/** How long a booking that waits (for its payment, or for the reseller) holds its seats. */
export type HoldRule =
  /** Decisions §3: by payment mode (see `holdExpiry`); a MANUAL booking holds nothing. */
  | { by: 'paymentMode' }
  /** The tour's `publicHoldMinutes`, shorter: a guest's cart should not sit on seats. */
  | { by: 'tour' }
  /** The minutes the caller asked for (an OCTO reservation's expiration). */
  | { by: 'minutes'; minutes: number };

/**
 * What differs between the channels a booking comes through (the native API, a guest's widget,
 * a reseller over OCTO); everything else about a booking is the same rule for all. The use
 * cases read these knobs and never ask which channel they serve.
 */
export interface BookingChannelPolicy {
  /** Only published tours' departures exist for this channel (another is 422 `not_found`). */
  readonly publishedToursOnly: boolean;
  /** The payment modes it may ask for and the refusal of any other (422); null: every mode. */
  readonly paymentModes: { readonly allowed: readonly PaymentMode[]; readonly refusal: string } | null;
  /** How long a waiting booking holds its seats. */
  readonly hold: HoldRule;
  /** A free booking waits too, PENDING and holding, until it is confirmed (a reservation). */
  readonly holdsWhenFree: boolean;
  /** The tour's `maxSeatsPerPublicBooking` caps one booking. */
  readonly capsSeatsPerBooking: boolean;
  /** The client the booking is held for, whose live holds are capped; null: no such brake. */
  readonly holder: BookingHolder | null;
  /** A booking confirmed as it is made (a free one) e-mails the guest its confirmation. */
  readonly emailsConfirmation: boolean;
  /**
   * At most this many of those confirmations go to one customer (one address of the workspace)
   * per hour; the rest are withheld and the booking stands. Null: no such brake.
   */
  readonly confirmationsPerRecipientPerHour: number | null;
  /**
   * Whose words the request's `notes` are: the operator's internal `notes`, or the guest's
   * `guestMessage` (a guest must never write what the console shows as the operator's).
   */
  readonly notesBy: 'operator' | 'guest';
  /**
   * When a new booking takes its seats: `atCommit`, with the transaction's COMMIT, so a hot
   * departure's row is locked the shortest time; `now`, before `createBooking` returns, for a
   * caller that reads the departure's seats later in the same transaction.
   */
  readonly seats: 'atCommit' | 'now';
  /**
   * A booking may move to another (published) tour's departure. The new participants are then
   * required and priced on the new tour; the booking keeps the cancellation policy it was sold
   * under, and takes the new tour's currency only while nothing has been paid.
   */
  readonly changesTour: boolean;
}

/** The operator's own API (and its console): every tour, every payment mode, decisions §3's holds. */
export const NATIVE_CHANNEL: BookingChannelPolicy = {
  publishedToursOnly: false,
  paymentModes: null,
  hold: { by: 'paymentMode' },
  holdsWhenFree: false,
  capsSeatsPerBooking: false,
  holder: null,
  emailsConfirmation: false,
  confirmationsPerRecipientPerHour: null,
  notesBy: 'operator',
  seats: 'atCommit',
  changesTour: false,
};

/**
 * A guest (the booking widget, no credential): published tours only, paid online, within the
 * tour's seats per booking and, given a `holder`, its client's unpaid holds and free bookings
 * per departure; a free booking's confirmation e-mails capped per recipient and hour if given.
 */
export function publicChannel(
  holder?: BookingHolder,
  confirmationsPerRecipientPerHour: number | null = null,
): BookingChannelPolicy {
  return {
    ...NATIVE_CHANNEL,
    publishedToursOnly: true,
    paymentModes: {
      allowed: ['CHECKOUT', 'DEPOSIT'],
      refusal: 'Guests pay online: use CHECKOUT or DEPOSIT.',
    },
    hold: { by: 'tour' },
    capsSeatsPerBooking: true,
    holder: holder ?? null,
    // Its confirmation is the guest's only e-mail about a free booking.
    emailsConfirmation: true,
    confirmationsPerRecipientPerHour,
    notesBy: 'guest',
  };
}

/**
 * A reseller (OCTO): published tours only, in MANUAL mode (it pays the operator, so no payment
 * page); its reservation holds its seats `holdMinutes`, free or not, until it is confirmed,
 * and takes them at once (its answer shows the departure's vacancies with them taken). Its
 * bookings may move to another tour (OCTO: change the product).
 */
export function resellerChannel(holdMinutes: number): BookingChannelPolicy {
  // A caller's bug, not a request's: OCTO bounds the minutes before it asks.
  if (!(holdMinutes > 0)) throw new Error('A reseller holds its reservation for some minutes.');
  return {
    ...NATIVE_CHANNEL,
    publishedToursOnly: true,
    paymentModes: { allowed: ['MANUAL'], refusal: 'A reseller books in MANUAL mode.' },
    hold: { by: 'minutes', minutes: holdMinutes },
    holdsWhenFree: true,
    seats: 'now',
    changesTour: true,
  };
}
