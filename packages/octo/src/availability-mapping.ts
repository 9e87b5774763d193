/**
 * Departures as OCTO availabilities and calendar days, and the local-day windows OCTO asks
 * by: pure, over the departures' views (seats, sales status, prices) and their tour.
 */
import type { DepartureView, SalesStatus, Tour } from '@travelops/domain/catalog';
import {
  addDays,
  bestSalesStatus,
  daysBetween,
  localDateOf,
  localIsoDateTime,
} from '@travelops/domain/catalog';
import { pricingOf, unitPrice, unitsOf, utcSeconds } from './product-mapping.js';
import type { OctoAvailability, OctoCalendarDay } from './shapes.js';

const isOpen = (status: SalesStatus) => status === 'AVAILABLE' || status === 'LIMITED';

/** Seats the reseller asks about at once (the sum of the units' quantities); 0 when it did not say. */
export const seatsAsked = (units: ReadonlyArray<{ quantity: number }> | undefined) =>
  (units ?? []).reduce((sum, unit) => sum + unit.quantity, 0);

/**
 * A departure as an OCTO availability: its id is the departure's, its status the departure's
 * `salesStatus`. `available` says whether it can be booked now (for `seats` seats, when asked).
 */
export function toOctoAvailability(
  departure: DepartureView,
  tour: Tour,
  options: { pricing: boolean; seats?: number },
): OctoAvailability {
  const end = new Date(Date.parse(departure.startsAt) + tour.durationMinutes * 60_000);
  const vacancies = Math.max(0, departure.seatsRemaining);
  const availability: OctoAvailability = {
    id: departure.id,
    localDateTimeStart: localIsoDateTime(departure.startsAt, tour.timeZone),
    localDateTimeEnd: localIsoDateTime(end, tour.timeZone),
    utcCutoffAt: utcSeconds(departure.bookingCutoffAt ?? departure.startsAt),
    allDay: false,
    available: isOpen(departure.salesStatus) && vacancies >= Math.max(1, options.seats ?? 0),
    status: departure.salesStatus,
    vacancies,
    capacity: departure.capacity,
    maxUnits: null,
    openingHours: [],
  };
  if (options.pricing) {
    availability.unitPricing = unitsOf(tour).map((type) => ({
      unitId: type.id,
      ...pricingOf(unitPrice(type, departure.prices), tour.currency),
    }));
  }
  return availability;
}

/**
 * One row per local day from `from` to `to` (the tour's zone), from its departures' views:
 * the best status of the day's open departures (CLOSED without one), the most seats one of
 * them has left and its capacity, and (with pricing) each unit's lowest price that day.
 */
export function toOctoCalendar(
  range: { from: string; to: string },
  departures: readonly DepartureView[],
  tour: Tour,
  options: { pricing: boolean; seats?: number },
): OctoCalendarDay[] {
  const byDay = new Map<string, DepartureView[]>();
  for (const departure of departures) {
    if (departure.salesStatus === 'CLOSED') continue;
    const day = localDateOf(new Date(departure.startsAt), tour.timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), departure]);
  }
  const days: OctoCalendarDay[] = [];
  for (let offset = 0; offset <= daysBetween(range.from, range.to); offset++) {
    const localDate = addDays(range.from, offset);
    const open = byDay.get(localDate) ?? [];
    const best = open.reduce<DepartureView | null>(
      (top, d) => (top === null || d.seatsRemaining > top.seatsRemaining ? d : top),
      null,
    );
    const status = bestSalesStatus(open.map((d) => d.salesStatus));
    const vacancies = Math.max(0, best?.seatsRemaining ?? 0);
    const day: OctoCalendarDay = {
      localDate,
      available: isOpen(status) && vacancies >= Math.max(1, options.seats ?? 0),
      status,
      vacancies,
      capacity: best?.capacity ?? 0,
      openingHours: [],
    };
    if (options.pricing) {
      const selling = open.filter((d) => d.seatsRemaining > 0);
      day.unitPricingFrom = selling.length
        ? unitsOf(tour).map((type) => ({
            unitId: type.id,
            ...pricingOf(Math.min(...selling.map((d) => unitPrice(type, d.prices))), tour.currency),
          }))
        : [];
    }
    days.push(day);
  }
  return days;
}

/** The UTC window that holds every departure on local days `from`..`to` of any zone. */
export function utcWindowOf(range: { from: string; to: string }): { startsFrom: Date; startsBefore: Date } {
  return {
    startsFrom: new Date(`${addDays(range.from, -1)}T00:00:00.000Z`),
    startsBefore: new Date(`${addDays(range.to, 2)}T00:00:00.000Z`),
  };
}

/** Whether the departure starts on one of the local days `from`..`to` in `timeZone`. */
export function startsWithin(
  startsAt: string,
  range: { from: string; to: string },
  timeZone: string,
): boolean {
  const day = localDateOf(new Date(startsAt), timeZone);
  return day >= range.from && day <= range.to;
}
