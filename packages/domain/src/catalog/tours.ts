import { notFound } from '../shared/errors.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CatalogDeps } from './ports.js';
import type { CreateTourInput, Tour, UpdateTourInput } from './tour-schemas.js';

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

export async function createTour(deps: CatalogDeps<'tours'>, workspaceId: string, input: CreateTourInput) {
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
  deps: CatalogDeps<'tours'>,
  workspaceId: string,
  id: string,
  input: UpdateTourInput,
): Promise<Result<Tour>> {
  return deps.uow.stores.tours.update(workspaceId, id, input);
}

export function listTours(deps: CatalogDeps<'tours'>, workspaceId: string, page: PageRequest) {
  return deps.uow.stores.tours.list(workspaceId, page);
}
