import { notFound } from '../shared/errors.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CatalogDeps, TourPatch } from './ports.js';
import { checkRequirements } from './resource-assignment.js';
import { mergeTicketTypes } from './ticket-types.js';
import {
  type CancellationPolicy,
  type CancellationPolicyInput,
  type CreateTourInput,
  DEFAULT_CANCELLATION_POLICY,
  DEFAULT_MAX_SEATS_PER_PUBLIC_BOOKING,
  DEFAULT_PUBLIC_HOLD_MINUTES,
  DEFAULT_REMINDER_HOURS_BEFORE,
  type Tour,
  type UpdateTourInput,
} from './tour-schemas.js';

const DEFAULT_DEPOSIT_PERCENT = 20;

function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'tour';
}

const toPolicy = (input: CancellationPolicyInput): CancellationPolicy => ({
  cutoffHours: input.cutoffHours,
  refund: input.refund,
  refundPercent: input.refund === 'PARTIAL' ? (input.refundPercent ?? null) : null,
});

export async function createTour(
  deps: CatalogDeps<'tours' | 'resources'>,
  workspaceId: string,
  input: CreateTourInput,
): Promise<Result<Tour>> {
  const ticketTypes = mergeTicketTypes([], input.ticketTypes ?? [], new Set());
  if (!ticketTypes.ok) return ticketTypes;
  const tour = {
    id: newId('tour'),
    slug: input.slug ?? slugify(input.name),
    name: input.name,
    description: input.description ?? '',
    durationMinutes: input.durationMinutes,
    basePrice: input.basePrice,
    currency: input.currency,
    capacity: input.capacity,
    meetingPoint: input.meetingPoint ?? null,
    isPublic: input.isPublic ?? false,
    depositPercent: input.depositPercent ?? DEFAULT_DEPOSIT_PERCENT,
    addOns: input.addOns ?? [],
    timeZone: input.timeZone ?? 'UTC',
    ticketTypes: ticketTypes.value,
    cancellationPolicy: input.cancellationPolicy
      ? toPolicy(input.cancellationPolicy)
      : DEFAULT_CANCELLATION_POLICY,
    maxSeatsPerPublicBooking: input.maxSeatsPerPublicBooking ?? DEFAULT_MAX_SEATS_PER_PUBLIC_BOOKING,
    publicHoldMinutes: input.publicHoldMinutes ?? DEFAULT_PUBLIC_HOLD_MINUTES,
    reminderHoursBefore:
      input.reminderHoursBefore === undefined ? DEFAULT_REMINDER_HOURS_BEFORE : input.reminderHoursBefore,
    resourceRequirements: input.resourceRequirements ?? [],
  };
  const known = await checkRequirements(deps.uow.stores, workspaceId, tour.resourceRequirements);
  if (!known.ok) return known;
  const created = await deps.uow.stores.tours.insert(workspaceId, tour);
  // A derived slug that is taken gets a short random suffix; a chosen one is the client's to fix.
  if (!created.ok && input.slug === undefined && created.error.code === 'CONFLICT') {
    return deps.uow.stores.tours.insert(workspaceId, {
      ...tour,
      slug: `${tour.slug}-${randomBase62(6).toLowerCase()}`,
    });
  }
  return created;
}

export async function getTour(
  deps: CatalogDeps<'tours'>,
  workspaceId: string,
  id: string,
): Promise<Result<Tour>> {
  const tour = await deps.uow.stores.tours.findById(workspaceId, id);
  return tour ? ok(tour) : fail(notFound('tour'));
}

export async function updateTour(
  deps: CatalogDeps<'tours' | 'resources'>,
  workspaceId: string,
  id: string,
  input: UpdateTourInput,
): Promise<Result<Tour>> {
  const { ticketTypes: ticketInputs, cancellationPolicy, ...rest } = input;
  const patch: TourPatch = { ...rest };
  if (cancellationPolicy) patch.cancellationPolicy = toPolicy(cancellationPolicy);
  if (rest.resourceRequirements) {
    const known = await checkRequirements(deps.uow.stores, workspaceId, rest.resourceRequirements);
    if (!known.ok) return known;
  }
  if (ticketInputs) {
    const current = await deps.uow.stores.tours.findById(workspaceId, id);
    if (!current) return fail(notFound('tour'));
    const inUse = await deps.uow.stores.tours.ticketTypesInUse(workspaceId, id);
    const merged = mergeTicketTypes(current.ticketTypes, ticketInputs, inUse);
    if (!merged.ok) return merged;
    patch.ticketTypes = merged.value;
  }
  return deps.uow.stores.tours.update(workspaceId, id, patch);
}

export function listTours(deps: CatalogDeps<'tours'>, workspaceId: string, page: PageRequest) {
  return deps.uow.stores.tours.list(workspaceId, page);
}
