import { localIsoDateTime } from '../catalog/index.js';
import { unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { DateRange, PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { OperationsDeps } from './ports.js';
import { deleted, orNotFound, unknownRef } from './results.js';
import type {
  CreateGuideInput,
  CreateTimeOffInput,
  Guide,
  GuideSchedule,
  TimeOff,
  UpdateGuideInput,
} from './schemas.js';

// ---- Guides and time-off --------------------------------------------------------------------

export async function createGuide(
  deps: OperationsDeps<'guides' | 'members'>,
  workspaceId: string,
  input: CreateGuideInput,
): Promise<Result<Guide>> {
  if (!(await deps.uow.stores.members.findById(workspaceId, input.memberId))) {
    return fail(unknownRef('member', 'memberId'));
  }
  return deps.uow.stores.guides.insert(workspaceId, {
    memberId: input.memberId,
    isGuide: true,
    displayName: input.displayName,
    phone: input.phone ?? null,
    languages: [...new Set(input.languages ?? [])],
    certifications: [...new Set(input.certifications ?? [])],
  });
}

export async function updateGuide(
  deps: OperationsDeps<'guides'>,
  workspaceId: string,
  memberId: string,
  input: UpdateGuideInput,
): Promise<Result<Guide>> {
  const patch = {
    ...input,
    ...(input.languages && { languages: [...new Set(input.languages)] }),
    ...(input.certifications && { certifications: [...new Set(input.certifications)] }),
  };
  return orNotFound(await deps.uow.stores.guides.update(workspaceId, memberId, patch), 'guide');
}

/**
 * Guides, newest first. A guide's e-mail is a staff member's personal contact: it is shown
 * only to callers who manage staff or sign in as members (`withEmail`), null otherwise.
 */
export async function listGuides(
  deps: OperationsDeps<'guides'>,
  workspaceId: string,
  options: { activeOnly: boolean; withEmail: boolean },
  page: PageRequest,
) {
  const guides = await deps.uow.stores.guides.list(workspaceId, { activeOnly: options.activeOnly }, page);
  return options.withEmail
    ? guides
    : { ...guides, items: guides.items.map((guide) => ({ ...guide, email: null })) };
}

async function findGuide(deps: OperationsDeps<'guides'>, workspaceId: string, memberId: string) {
  return orNotFound(await deps.uow.stores.guides.findByMemberId(workspaceId, memberId), 'guide');
}

export async function createTimeOff(
  deps: OperationsDeps<'guides' | 'timeOff'>,
  workspaceId: string,
  memberId: string,
  input: CreateTimeOffInput,
): Promise<Result<TimeOff>> {
  const guide = await findGuide(deps, workspaceId, memberId);
  if (!guide.ok) return guide;
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  if (endsAt <= startsAt) {
    return fail(unprocessable('Time off must end after it starts.', 'endsAt', 'before_start'));
  }
  return ok(
    await deps.uow.stores.timeOff.insert(workspaceId, {
      id: newId('timeOff'),
      memberId,
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
      reason: input.reason ?? null,
    }),
  );
}

export async function listTimeOff(
  deps: OperationsDeps<'guides' | 'timeOff'>,
  workspaceId: string,
  memberId: string,
  range: DateRange,
  page: PageRequest,
) {
  const guide = await findGuide(deps, workspaceId, memberId);
  if (!guide.ok) return guide;
  return ok(await deps.uow.stores.timeOff.list(workspaceId, memberId, range, page));
}

export async function deleteTimeOff(
  deps: OperationsDeps<'timeOff'>,
  workspaceId: string,
  memberId: string,
  id: string,
) {
  return deleted(id, await deps.uow.stores.timeOff.delete(workspaceId, memberId, id), 'time off');
}

const DAY_MS = 86_400_000;

/**
 * A guide's departures (as guide or driver, not cancelled) and time off overlapping the UTC
 * days `from` to `to`, each by start, departures with their tour's name and local start.
 */
export async function getGuideSchedule(
  deps: OperationsDeps<'guides' | 'timeOff' | 'departures' | 'tours'>,
  workspaceId: string,
  memberId: string,
  range: { from: string; to: string },
): Promise<Result<GuideSchedule>> {
  const guide = await findGuide(deps, workspaceId, memberId);
  if (!guide.ok) return guide;
  const { stores } = deps.uow;
  const start = new Date(Date.parse(`${range.from}T00:00:00.000Z`));
  const end = new Date(Date.parse(`${range.to}T00:00:00.000Z`) + DAY_MS);
  const [departures, timeOff] = await Promise.all([
    stores.departures.findOverlapping(workspaceId, { memberId }, start, end, ''),
    stores.timeOff.findOverlapping(workspaceId, memberId, start, end),
  ]);
  const ids = [...new Set(departures.map((d) => d.tourId))];
  const tours = new Map(
    (ids.length ? await stores.tours.findByIds(workspaceId, ids) : []).map((t) => [t.id, t]),
  );
  return ok({
    memberId,
    from: range.from,
    to: range.to,
    departures: departures.map((d) => {
      const tour = tours.get(d.tourId);
      const minutes = tour?.durationMinutes ?? 0;
      return {
        availabilityId: d.id,
        tourId: d.tourId,
        tourName: tour?.name ?? '',
        role: d.guideId === memberId ? ('GUIDE' as const) : ('DRIVER' as const),
        startsAt: d.startsAt,
        endsAt: new Date(Date.parse(d.startsAt) + minutes * 60_000).toISOString(),
        localStartsAt: localIsoDateTime(d.startsAt, tour?.timeZone ?? 'UTC'),
        status: d.status,
      };
    }),
    timeOff: [...timeOff].sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id)),
  });
}
