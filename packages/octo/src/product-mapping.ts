/**
 * Tours as OCTO products: their units (ticket types, or one ADULT seat), prices in OCTO's
 * shape, the one option, start times, and the units a reseller names resolved to ticket types.
 * The availability and booking mappers build on these (availability-mapping.ts,
 * booking-mapping.ts).
 */
import type { DeparturePrice, TicketType, Tour } from '@travelops/domain/catalog';
import { localIsoDateTime } from '@travelops/domain/catalog';
import type { AgeBand } from '@travelops/domain/shared';
import { minorUnitDigits, ok, type Result } from '@travelops/domain/shared';
import { invalidUnit, type OctoError } from './errors.js';
import type { OctoOption, OctoPricing, OctoProduct, OctoUnit, OctoUnitType } from './shapes.js';

/** Every product has one option: the tour as it is sold. */
export const DEFAULT_OPTION_ID = 'DEFAULT';

/** The one unit of a tour without ticket types: an ADULT seat at `basePrice`. */
export const STANDARD_UNIT_ID = 'adult';

const ADULT_BANDS: ReadonlySet<AgeBand> = new Set(['ADULT', 'SENIOR']);

/** OCTO shows UTC to the second: `2031-03-14T18:30:00Z`. */
export function utcSeconds(instant: string | Date): string {
  return `${new Date(instant).toISOString().slice(0, 19)}Z`;
}

/** A price in minor units: what the guest pays; the reseller's net rate is not this service's. */
export function pricingOf(amount: number, currency: string): OctoPricing {
  return {
    original: amount,
    retail: amount,
    net: null,
    currency,
    // The service's one minor-unit table (shared/money.ts): the amounts above are in its units.
    currencyPrecision: minorUnitDigits(currency),
    includedTaxes: [],
  };
}

/** The band's OCTO unit type: the bands are OCTO's own names. */
const unitTypeOf = (band: AgeBand): OctoUnitType => band;

/** The tour's units: its ticket types, or one ADULT unit on a tour without them. */
export function unitsOf(tour: Pick<Tour, 'ticketTypes' | 'basePrice'>): TicketType[] {
  if (tour.ticketTypes.length > 0) return tour.ticketTypes;
  return [
    {
      id: STANDARD_UNIT_ID,
      name: 'Adult',
      ageBand: 'ADULT',
      price: tour.basePrice,
      minAge: null,
      maxAge: null,
      minPerBooking: null,
      maxPerBooking: null,
      requiresAdult: false,
    },
  ];
}

/** A unit's price on a departure: its override there, else the type's. */
export const unitPrice = (type: TicketType, overrides: readonly DeparturePrice[]) =>
  overrides.find((price) => price.ticketTypeId === type.id)?.price ?? type.price;

function toOctoUnit(
  type: TicketType,
  all: readonly TicketType[],
  currency: string,
  pricing: boolean,
): OctoUnit {
  const unit: OctoUnit = {
    id: type.id,
    internalName: type.name,
    reference: null,
    type: unitTypeOf(type.ageBand),
    restrictions: {
      minAge: type.minAge ?? 0,
      maxAge: type.maxAge ?? 120,
      idRequired: false,
      minQuantity: type.minPerBooking,
      maxQuantity: type.maxPerBooking,
      paxCount: 1,
      accompaniedBy: type.requiresAdult ? all.filter((t) => ADULT_BANDS.has(t.ageBand)).map((t) => t.id) : [],
    },
    requiredContactFields: [],
  };
  if (pricing) unit.pricingFrom = [pricingOf(type.price, currency)];
  return unit;
}

export function toOctoUnits(tour: Tour, pricing: boolean): OctoUnit[] {
  const all = unitsOf(tour);
  return all.map((type) => toOctoUnit(type, all, tour.currency, pricing));
}

/**
 * The product's one option. `startTimes` are the local start times of its schedules and future
 * departures; OCTO wants at least one, so a tour with neither shows midnight (and has no
 * availability to sell).
 */
function toOctoOption(tour: Tour, startTimes: readonly string[], pricing: boolean): OctoOption {
  const hours = tour.cancellationPolicy.cutoffHours;
  return {
    id: DEFAULT_OPTION_ID,
    default: true,
    internalName: tour.name,
    reference: null,
    availabilityLocalStartTimes: startTimes.length > 0 ? [...startTimes] : ['00:00'],
    cancellationCutoff: `${hours} hour${hours === 1 ? '' : 's'}`,
    cancellationCutoffAmount: hours,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: [],
    restrictions: { minUnits: 1, maxUnits: null },
    units: toOctoUnits(tour, pricing),
  };
}

/**
 * A published tour as an OCTO product: START_TIME availability in the tour's time zone,
 * confirmed at once, delivered as a voucher the guide checks against the manifest.
 */
export function toOctoProduct(tour: Tour, startTimes: readonly string[], pricing: boolean): OctoProduct {
  const product: OctoProduct = {
    id: tour.id,
    internalName: tour.name,
    reference: tour.slug,
    locale: 'en',
    timeZone: tour.timeZone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: 'START_TIME',
    deliveryFormats: ['QRCODE'],
    deliveryMethods: ['VOUCHER'],
    redemptionMethod: 'MANIFEST',
    options: [toOctoOption(tour, startTimes, pricing)],
  };
  if (pricing) {
    product.defaultCurrency = tour.currency;
    product.availableCurrencies = [tour.currency];
    product.pricingPer = 'UNIT';
  }
  return product;
}

/** Local start times (`HH:MM`) in the tour's zone, sorted, each once. */
export function localStartTimes(
  scheduleTimes: readonly string[],
  departureStarts: readonly string[],
  timeZone: string,
): string[] {
  const times = new Set(scheduleTimes);
  for (const startsAt of departureStarts) times.add(localIsoDateTime(startsAt, timeZone).slice(11, 16));
  return [...times].sort();
}

/** A unit a reseller named, as the booking use cases take it: a ticket type, or the ADULT seat. */
export interface ResolvedUnit {
  unitId: string;
  ticketTypeId?: string;
  ageBand: AgeBand;
  name: string;
}

/** Each unit item's unit among the tour's; an unknown one is INVALID_UNIT_ID. */
export function resolveUnits(
  tour: Pick<Tour, 'ticketTypes' | 'basePrice'>,
  unitIds: readonly string[],
): Result<ResolvedUnit[], OctoError> {
  const resolved: ResolvedUnit[] = [];
  for (const unitId of unitIds) {
    const type = unitsOf(tour).find((t) => t.id === unitId);
    if (!type) return invalidUnit(unitId);
    resolved.push({
      unitId,
      ...(tour.ticketTypes.length > 0 && { ticketTypeId: type.id }),
      ageBand: type.ageBand,
      name: type.name,
    });
  }
  return ok(resolved);
}
