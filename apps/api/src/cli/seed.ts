import { issueApiToken } from '@travelops/auth';
import { createWorkspace, findWorkspace } from '@travelops/domain/access';
import { createDeparture, createTour } from '@travelops/domain/catalog';
import { createCustomer } from '@travelops/domain/crm';
import type { Result } from '@travelops/domain/shared';
import type { CommandDeps } from './commands.js';

const DAY = 24 * 60 * 60 * 1000;

function expect<T>(result: Result<T>, what: string): T {
  if (!result.ok) throw new Error(`seed: could not create ${what}: ${result.error.message}`);
  return result.value;
}

/** The next `count` days at `hour`:00 UTC, starting tomorrow. */
function upcoming(now: Date, count: number, hour: number): string[] {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, hour);
  return Array.from({ length: count }, (_, day) => new Date(start + day * DAY).toISOString());
}

/**
 * A demo workspace to explore the API with: published and draft tours, two weeks of
 * departures, a few customers, and an ADMIN token (its secret is shown once).
 */
export async function seedDemo(deps: CommandDeps, slug = 'demo') {
  const catalog = deps;
  const existing = await findWorkspace(deps, slug);
  const workspace =
    existing ?? expect(await createWorkspace(deps, { slug, name: 'Demo Tours' }), 'workspace');
  const tours = existing
    ? []
    : [
        expect(
          await createTour(catalog, workspace.id, {
            name: 'Old Town Walking Tour',
            slug: 'old-town-walk',
            description: 'Two hours through the old town with a local guide.',
            durationMinutes: 120,
            basePrice: 2500,
            currency: 'EUR',
            capacity: 15,
            meetingPoint: 'Fountain, Main Square',
            isPublic: true,
          }),
          'tour',
        ),
        expect(
          await createTour(catalog, workspace.id, {
            name: 'Sunset Kayak',
            slug: 'sunset-kayak',
            description: 'Paddle the bay at sunset; all equipment included.',
            durationMinutes: 180,
            basePrice: 6900,
            currency: 'EUR',
            capacity: 8,
            meetingPoint: 'Harbour boathouse',
            isPublic: true,
            depositPercent: 30,
          }),
          'tour',
        ),
        expect(
          await createTour(catalog, workspace.id, {
            name: 'Private Wine Tasting (draft)',
            durationMinutes: 150,
            basePrice: 12000,
            currency: 'EUR',
            capacity: 6,
          }),
          'tour',
        ),
      ];
  const availability: string[] = [];
  for (const [tour, hour] of tours.slice(0, 2).map((t, i) => [t, i === 0 ? 9 : 17] as const)) {
    for (const startsAt of upcoming(deps.clock.now(), 14, hour)) {
      const departure = expect(
        await createDeparture(catalog, workspace.id, { tourId: tour.id, startsAt }),
        'departure',
      );
      availability.push(departure.id);
    }
  }
  const customers = existing
    ? []
    : [
        { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0001', tags: ['vip'] },
        { name: 'Grace Hopper', email: 'grace@example.com', marketingConsent: true },
        { name: 'Alan Turing', email: 'alan@example.com' },
      ];
  const customerIds: string[] = [];
  for (const customer of customers) {
    customerIds.push(expect(await createCustomer(catalog, workspace.id, customer), 'customer').id);
  }
  const { token, secret } = await issueApiToken(deps, {
    workspaceId: workspace.id,
    role: 'ADMIN',
    name: 'demo admin',
  });
  return {
    workspaceId: workspace.id,
    slug: workspace.slug,
    created: !existing,
    tokenId: token.id,
    token: secret,
    role: token.role,
    tours: tours.map((tour) => tour.id),
    availability,
    customers: customerIds,
  };
}
