import { notFound } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import {
  type CalendarDay,
  type CalendarRange,
  calendarDayStarts,
  calendarDays,
  calendarRange,
  calendarValidUntil,
} from './calendar.js';
import { type CalendarMemo, calendarMemoKey, isCalendarMemoTimely } from './calendar-memo.js';
import { viewDepartures } from './departure-views.js';
import { addDays, localDateOf } from './local-time.js';
import type { CalendarWindow, CatalogDeps, PublishedTour } from './ports.js';
import { type PublicDeparture, toPublicDeparture } from './public-departure.js';
import { type PublicTour, toPublicTour } from './public-tour.js';

/** Public catalog: resolves the workspace by slug; unknown slugs are 404 like any other miss. */
async function publicWorkspace(deps: CatalogDeps<'workspaces'>, slug: string) {
  return deps.uow.stores.workspaces.findBySlug(slug);
}

export async function listPublicTours(
  deps: CatalogDeps<'tours' | 'workspaces'>,
  workspaceSlug: string,
): Promise<Result<PublicTour[]>> {
  const workspace = await publicWorkspace(deps, workspaceSlug);
  if (!workspace) return fail(notFound('workspace'));
  return ok((await deps.uow.stores.tours.listPublic(workspace.id)).map(toPublicTour));
}

/** A published tour by its public address: unknown slugs and unpublished tours are 404 alike. */
function findPublicTour(deps: CatalogDeps<'tours'>, workspaceSlug: string, tourSlug: string) {
  return deps.uow.stores.tours.findPublicBySlugs(workspaceSlug, tourSlug);
}

export async function getPublicTour(
  deps: CatalogDeps<'tours'>,
  workspaceSlug: string,
  tourSlug: string,
): Promise<Result<PublicTour>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  return found ? ok(toPublicTour(found.tour)) : fail(notFound('tour'));
}

export async function listPublicDepartures(
  deps: CatalogDeps<'departures' | 'blackoutDates' | 'tours'>,
  workspaceSlug: string,
  tourSlug: string,
  filter: { from?: string; to?: string },
): Promise<Result<PublicDeparture[]>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  if (!found) return fail(notFound('tour'));
  const now = deps.clock.now();
  const open = await deps.uow.stores.departures.listBookable(found.workspaceId, found.tour.id, filter, now);
  // The store keeps status, time and cutoff; blackout dates are the rule's to apply.
  const views = await viewDepartures(deps.uow.stores, found.workspaceId, open, now, [found.tour]);
  return ok(views.filter((departure) => departure.salesStatus !== 'CLOSED').map(toPublicDeparture));
}

type CalendarStores = 'departures' | 'blackoutDates' | 'tours';

export interface PublicCalendarDeps extends CatalogDeps<CalendarStores> {
  /** Answers kept per instance, each checked against the database's version on every call; absent: none kept. */
  calendarMemo?: CalendarMemo;
}

/** What the version of a calendar of `range` at `now` covers: all the rows it may read, and more. */
function calendarWindow(range: CalendarRange, now: Date): CalendarWindow {
  // A local day lies within a day of its UTC date: one day more on each side covers every zone.
  return { departures: { from: addDays(range.from, -1), to: addDays(range.to, 1) }, blackouts: range, now };
}

async function computeCalendar(
  deps: CatalogDeps<CalendarStores>,
  found: PublishedTour,
  range: CalendarRange,
  now: Date,
): Promise<{ days: CalendarDay[]; validUntilMs: number }> {
  const { workspaceId, tour } = found;
  const departures = await deps.uow.stores.departures.listCalendarDepartures(
    workspaceId,
    tour.id,
    calendarDayStarts(range, tour.timeZone),
    now,
  );
  const blackouts = await deps.uow.stores.blackoutDates.listApplying(workspaceId, tour.id, range);
  return {
    days: calendarDays(range, departures, tour, now, blackouts),
    validUntilMs: calendarValidUntil(departures, now),
  };
}

const sameRange = (a: CalendarRange, b: CalendarRange) => a.from === b.from && a.to === b.to;

/**
 * The public calendar of a published tour: one row per local day (the tour's time zone) of
 * the range, from one read of the tour, one of its bookable departures and one of its blackouts.
 *
 * With a memo, an answer computed before is given again when one statement shows that nothing
 * it read has changed (the tour, its departures and blackouts of the range: their version) and
 * the clock has not passed a cutoff or start it depends on, nor the tour's day (its `validUntil`).
 * Every call reads the version, so instances sharing a database never answer a stale calendar.
 */
export async function getPublicCalendar(
  deps: PublicCalendarDeps,
  workspaceSlug: string,
  tourSlug: string,
  query: { from?: string; to?: string },
): Promise<Result<CalendarDay[]>> {
  const now = deps.clock.now();
  const memo = deps.calendarMemo;
  const key = calendarMemoKey(workspaceSlug, tourSlug, query);
  const kept = memo?.get(key);
  const timely = kept && isCalendarMemoTimely(kept, now) ? kept : undefined;
  // The range, when it does not wait for the tour's today: the kept answer's, or a given `from`'s.
  let guess: CalendarRange | null = timely?.range ?? null;
  if (!guess && query.from !== undefined) {
    const given = calendarRange(query, query.from);
    if (given.ok) guess = given.value;
  }
  if (!memo || !guess) {
    const found = await findPublicTour(deps, workspaceSlug, tourSlug);
    if (!found) return fail(notFound('tour'));
    const range = calendarRange(query, localDateOf(now, found.tour.timeZone));
    if (!range.ok) return range;
    if (!memo) return ok((await computeCalendar(deps, found, range.value, now)).days);
    guess = range.value;
  }
  // The version is read before the rows: a change in between costs the next call a computation.
  const found = await deps.uow.stores.tours.findPublicCalendarTour(
    workspaceSlug,
    tourSlug,
    calendarWindow(guess, now),
  );
  if (!found) return fail(notFound('tour'));
  if (timely && found.version === timely.version) return ok(timely.days);
  const today = localDateOf(now, found.tour.timeZone);
  const range = calendarRange(query, today);
  if (!range.ok) return range;
  const { days, validUntilMs } = await computeCalendar(deps, found, range.value, now);
  if (sameRange(range.value, guess)) {
    memo.set(key, {
      version: found.version,
      range: range.value,
      today: query.from === undefined ? today : null,
      timeZone: found.tour.timeZone,
      computedAtMs: now.getTime(),
      validUntilMs,
      days,
    });
  } else {
    // The version read covered another range (the time zone changed): the next call starts afresh.
    memo.delete(key);
  }
  return ok(days);
}
