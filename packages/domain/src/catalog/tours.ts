import type { CreateCustomerInput, Customer } from '../crm/customer-schemas.js';
import { notFound, unprocessable } from '../shared/errors.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type {
  AvailabilityFilter,
  AvailabilityStore,
  BlackoutDateStore,
  Clock,
  CustomerStore,
  PageRequest,
  TourStore,
  WorkspaceStore,
} from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Availability, CreateAvailabilityInput } from './availability-schemas.js';
import { isBookable } from './departure-rules.js';
import type { CreateTourInput, Tour, UpdateTourInput } from './tour-schemas.js';

export interface CatalogDeps {
  tours: TourStore;
  availability: AvailabilityStore;
  customers: CustomerStore;
  workspaces: WorkspaceStore;
  blackoutDates: BlackoutDateStore;
  clock: Clock;
}

const DEFAULT_DEPOSIT_PERCENT = 20;

export function slugify(name: string): string {
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

export async function createTour(deps: CatalogDeps, workspaceId: string, input: CreateTourInput) {
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
  };
  const created = await deps.tours.insert(workspaceId, tour);
  // A derived slug that is taken gets a short random suffix; a chosen one is the client's to fix.
  if (!created.ok && input.slug === undefined && created.error.code === 'CONFLICT') {
    return deps.tours.insert(workspaceId, { ...tour, slug: `${tour.slug}-${randomBase62(6).toLowerCase()}` });
  }
  return created;
}

export async function getTour(deps: CatalogDeps, workspaceId: string, id: string): Promise<Result<Tour>> {
  const tour = await deps.tours.findById(workspaceId, id);
  return tour ? ok(tour) : fail(notFound('tour'));
}

export async function updateTour(
  deps: CatalogDeps,
  workspaceId: string,
  id: string,
  input: UpdateTourInput,
): Promise<Result<Tour>> {
  return deps.tours.update(workspaceId, id, input);
}

export function listTours(deps: CatalogDeps, workspaceId: string, page: PageRequest) {
  return deps.tours.list(workspaceId, page);
}

export async function createAvailability(
  deps: CatalogDeps,
  workspaceId: string,
  input: CreateAvailabilityInput,
): Promise<Result<Availability>> {
  const tour = await deps.tours.findById(workspaceId, input.tourId);
  if (!tour) return fail(unprocessable('No such tour in this workspace.', 'tourId', 'not_found'));
  const startsAt = new Date(input.startsAt);
  const bookingCutoffAt = input.bookingCutoffAt ? new Date(input.bookingCutoffAt) : null;
  if (bookingCutoffAt && bookingCutoffAt > startsAt) {
    return fail(
      unprocessable('The booking cutoff must not be after the start.', 'bookingCutoffAt', 'after_start'),
    );
  }
  const departure = await deps.availability.insert(workspaceId, {
    id: newId('availability'),
    tourId: tour.id,
    startsAt,
    capacity: input.capacity ?? tour.capacity,
    status: input.status ?? 'SCHEDULED',
    bookingCutoffAt,
  });
  return ok(departure);
}

export function listAvailability(
  deps: CatalogDeps,
  workspaceId: string,
  filter: AvailabilityFilter,
  page: PageRequest,
) {
  return deps.availability.list(workspaceId, filter, page);
}

export async function createCustomer(
  deps: CatalogDeps,
  workspaceId: string,
  input: CreateCustomerInput,
): Promise<Result<Customer>> {
  return deps.customers.insert(workspaceId, {
    id: newId('customer'),
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    tags: [...new Set(input.tags ?? [])],
    marketingConsent: input.marketingConsent ?? false,
  });
}

export async function getCustomer(
  deps: CatalogDeps,
  workspaceId: string,
  id: string,
): Promise<Result<Customer>> {
  const customer = await deps.customers.findById(workspaceId, id);
  return customer ? ok(customer) : fail(notFound('customer'));
}

export function listCustomers(
  deps: CatalogDeps,
  workspaceId: string,
  q: string | undefined,
  page: PageRequest,
) {
  return deps.customers.list(workspaceId, q ? { q } : {}, page);
}

/** Public catalog: resolves the workspace by slug; unknown slugs are 404 like any other miss. */
async function publicWorkspace(deps: CatalogDeps, slug: string) {
  return deps.workspaces.findBySlug(slug);
}

export async function listPublicTours(deps: CatalogDeps, workspaceSlug: string): Promise<Result<Tour[]>> {
  const workspace = await publicWorkspace(deps, workspaceSlug);
  if (!workspace) return fail(notFound('workspace'));
  return ok(await deps.tours.listPublic(workspace.id));
}

async function findPublicTour(deps: CatalogDeps, workspaceSlug: string, tourSlug: string) {
  const workspace = await publicWorkspace(deps, workspaceSlug);
  const tour = workspace ? await deps.tours.findBySlug(workspace.id, tourSlug) : null;
  return workspace && tour?.isPublic ? { workspace, tour } : null;
}

export async function getPublicTour(
  deps: CatalogDeps,
  workspaceSlug: string,
  tourSlug: string,
): Promise<Result<Tour>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  return found ? ok(found.tour) : fail(notFound('tour'));
}

export async function listPublicAvailability(
  deps: CatalogDeps,
  workspaceSlug: string,
  tourSlug: string,
  filter: { from?: string; to?: string },
): Promise<Result<Availability[]>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  if (!found) return fail(notFound('tour'));
  const now = deps.clock.now();
  const open = await deps.availability.listBookable(found.workspace.id, found.tour.id, filter, now);
  // The store keeps status, time and cutoff; blackout dates are the rule's to apply.
  const blackouts = await deps.blackoutDates.listApplying(found.workspace.id, found.tour.id, filter);
  return ok(open.filter((departure) => isBookable(departure, now, blackouts)));
}
