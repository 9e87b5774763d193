import type { Departure, Tour } from '@travelops/domain/catalog';
import { addDays, daysBetween, viewDepartures } from '@travelops/domain/catalog';
import { ok, type Result } from '@travelops/domain/shared';
import { seatsAsked, startsWithin, toOctoAvailability, toOctoCalendar } from './availability-mapping.js';
import { badRequest, invalidOption, invalidProduct, type OctoError, type OctoResult } from './errors.js';
import type { OctoCaller, OctoDeps, OctoStores } from './ports.js';
import { DEFAULT_OPTION_ID, localStartTimes, resolveUnits, toOctoProduct } from './product-mapping.js';
import type { OctoAvailabilityCheckInput, OctoCalendarInput } from './schemas.js';
import type {
  OctoAvailability,
  OctoCalendarDay,
  OctoCapability,
  OctoProduct,
  OctoSupplier,
} from './shapes.js';

type ReadDeps = Pick<OctoDeps, 'uow' | 'clock'>;

/**
 * Days one availability or calendar call may span: a month. The work of a call is bounded by
 * what it may ask (a reseller token asking a year at once read 5 000 departures, 1.4 MB, in
 * ~1.7 s); a reseller wanting more asks month by month.
 */
const MAX_RANGE_DAYS = 31;
/** Departures one call reads at most (27 a day for half a year). */
const MAX_DEPARTURES = 5000;
const PAGE = 500;

/** The capabilities this supplier serves beside OCTO core. */
export function listOctoCapabilities(): OctoCapability[] {
  return [{ id: 'octo/pricing', revision: 1, required: false, dependencies: [], docs: null }];
}

/** The workspace as OCTO's supplier; `endpoint` is where the OCTO API is served. */
export async function getOctoSupplier(
  deps: ReadDeps,
  caller: OctoCaller,
  endpoint: string,
): Promise<OctoResult<OctoSupplier>> {
  const workspace = await deps.uow.stores.workspaces.findById(caller.workspaceId);
  if (!workspace) throw new Error(`The caller's workspace ${caller.workspaceId} does not exist.`);
  return ok({
    id: workspace.id,
    name: workspace.name,
    endpoint,
    contact: { website: null, email: null, telephone: null, address: null },
  });
}

/** A tour the reseller may sell: the workspace's and published; else INVALID_PRODUCT_ID. */
export async function publishedTour(
  stores: Pick<OctoStores, 'tours'>,
  workspaceId: string,
  productId: string,
): Promise<Result<Tour, OctoError>> {
  const tour = await stores.tours.findById(workspaceId, productId);
  return tour?.isPublic ? ok(tour) : invalidProduct(productId);
}

/** The option's id must be the product's one option. */
export const checkOption = (optionId: string): Result<true, OctoError> =>
  optionId === DEFAULT_OPTION_ID ? ok(true) : invalidOption(optionId);

/** The tour's local start times: those of its active schedules and of its departures to come. */
async function startTimesOf(deps: ReadDeps, workspaceId: string, tour: Tour): Promise<string[]> {
  const stores = deps.uow.stores;
  const schedules = await stores.schedules.list(workspaceId, tour.id, { limit: 100, after: null });
  const departures = await stores.departures.listBookable(workspaceId, tour.id, {}, deps.clock.now());
  return localStartTimes(
    schedules.items.filter((s) => s.status === 'ACTIVE').flatMap((s) => s.times),
    departures.map((d) => d.startsAt),
    tour.timeZone,
  );
}

/** The workspace's published tours as OCTO products. */
export async function listOctoProducts(
  deps: ReadDeps,
  caller: OctoCaller,
): Promise<OctoResult<OctoProduct[]>> {
  const tours = await deps.uow.stores.tours.listPublic(caller.workspaceId);
  const products: OctoProduct[] = [];
  for (const tour of tours) {
    products.push(toOctoProduct(tour, await startTimesOf(deps, caller.workspaceId, tour), caller.pricing));
  }
  return ok(products);
}

export async function getOctoProduct(
  deps: ReadDeps,
  caller: OctoCaller,
  productId: string,
): Promise<OctoResult<OctoProduct>> {
  const tour = await publishedTour(deps.uow.stores, caller.workspaceId, productId);
  if (!tour.ok) return tour;
  return ok(
    toOctoProduct(tour.value, await startTimesOf(deps, caller.workspaceId, tour.value), caller.pricing),
  );
}

/** Local days `from`..`to`: `to` not before `from`, at most `MAX_RANGE_DAYS` days. */
function checkRange(from: string, to: string): Result<{ from: string; to: string }, OctoError> {
  const span = daysBetween(from, to);
  if (span < 0) return badRequest('localDateEnd is before localDateStart.');
  if (span + 1 > MAX_RANGE_DAYS) return badRequest(`Ask for at most ${MAX_RANGE_DAYS} days at once.`);
  return ok({ from, to });
}

/** The tour's departures (not CANCELLED) on local days `from`..`to` of its zone. */
async function departuresOn(
  stores: Pick<OctoStores, 'departures'>,
  workspaceId: string,
  tour: Tour,
  range: { from: string; to: string },
): Promise<Departure[]> {
  // A local day lies within a day of its UTC date: one more on each side covers every zone.
  const filter = { tourId: tour.id, from: addDays(range.from, -1), to: addDays(range.to, 1) };
  const found: Departure[] = [];
  let after = null;
  do {
    const page = await stores.departures.list(workspaceId, filter, { limit: PAGE, after });
    found.push(...page.items);
    after = page.hasMore ? page.next : null;
  } while (after && found.length < MAX_DEPARTURES);
  return found.filter((d) => d.status !== 'CANCELLED' && startsWithin(d.startsAt, range, tour.timeZone));
}

/** Units asked about must be the product's; a currency, when sent, the tour's. */
function checkAsked(
  tour: Tour,
  input: { units?: { id: string }[] | undefined; currency?: string | null | undefined },
): Result<true, OctoError> {
  const units = resolveUnits(
    tour,
    (input.units ?? []).map((unit) => unit.id),
  );
  if (!units.ok) return units;
  if (input.currency && input.currency !== tour.currency) {
    return badRequest(`This product sells in ${tour.currency} only.`);
  }
  return ok(true);
}

/**
 * OCTO's availability check: the departures of one local day, of a range of local days, or
 * with the given ids (exactly one of the three), each with its status and seats left.
 */
export async function checkOctoAvailability(
  deps: ReadDeps,
  caller: OctoCaller,
  input: OctoAvailabilityCheckInput,
): Promise<OctoResult<OctoAvailability[]>> {
  const stores = deps.uow.stores;
  const tour = await publishedTour(stores, caller.workspaceId, input.productId);
  if (!tour.ok) return tour;
  const option = checkOption(input.optionId);
  if (!option.ok) return option;
  const byIds = input.availabilityIds !== undefined;
  const byDay = input.localDate !== undefined;
  const byRange = input.localDateStart !== undefined || input.localDateEnd !== undefined;
  if ([byIds, byDay, byRange].filter(Boolean).length !== 1) {
    return badRequest('Send exactly one of localDate, localDateStart with localDateEnd, or availabilityIds.');
  }
  if (byRange && (input.localDateStart === undefined || input.localDateEnd === undefined)) {
    return badRequest('localDateStart and localDateEnd go together.');
  }
  const asked = checkAsked(tour.value, input);
  if (!asked.ok) return asked;
  let departures: Departure[];
  if (input.availabilityIds) {
    const found = await Promise.all(
      [...new Set(input.availabilityIds)].map((id) => stores.departures.findById(caller.workspaceId, id)),
    );
    departures = found.filter(
      (d): d is Departure => d !== null && d.tourId === tour.value.id && d.status !== 'CANCELLED',
    );
  } else {
    const from = (input.localDate ?? input.localDateStart) as string;
    const range = checkRange(from, input.localDate ?? (input.localDateEnd as string));
    if (!range.ok) return range;
    departures = await departuresOn(stores, caller.workspaceId, tour.value, range.value);
  }
  const views = await viewDepartures(stores, caller.workspaceId, departures, deps.clock.now(), [tour.value]);
  const seats = seatsAsked(input.units);
  return ok(views.map((d) => toOctoAvailability(d, tour.value, { pricing: caller.pricing, seats })));
}

/** OCTO's availability calendar: one row per local day of the range, both ends required. */
export async function getOctoCalendar(
  deps: ReadDeps,
  caller: OctoCaller,
  input: OctoCalendarInput,
): Promise<OctoResult<OctoCalendarDay[]>> {
  const stores = deps.uow.stores;
  const tour = await publishedTour(stores, caller.workspaceId, input.productId);
  if (!tour.ok) return tour;
  const option = checkOption(input.optionId);
  if (!option.ok) return option;
  if (input.localDateStart === undefined || input.localDateEnd === undefined) {
    return badRequest('localDateStart and localDateEnd are required.');
  }
  const range = checkRange(input.localDateStart, input.localDateEnd);
  if (!range.ok) return range;
  const asked = checkAsked(tour.value, input);
  if (!asked.ok) return asked;
  const departures = await departuresOn(stores, caller.workspaceId, tour.value, range.value);
  const views = await viewDepartures(stores, caller.workspaceId, departures, deps.clock.now(), [tour.value]);
  return ok(
    toOctoCalendar(range.value, views, tour.value, {
      pricing: caller.pricing,
      seats: seatsAsked(input.units),
    }),
  );
}
