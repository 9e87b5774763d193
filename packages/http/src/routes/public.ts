import {
  getPublicTour,
  listPublicAvailability,
  listPublicTours,
  PublicAvailabilityQuerySchema,
  PublicDepartureSchema,
  TourSchema,
} from '@travelops/domain';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId } from './params.js';

const tags = ['Public'];
const SlugParams = v.object({ workspaceSlug: PathId });
const TourSlugParams = v.object({ workspaceSlug: PathId, tourSlug: PathId });

export const publicRoutes = [
  defineRoute({
    operationId: 'listPublicTours',
    method: 'get',
    path: '/public/{workspaceSlug}/tours',
    summary: "List a workspace's published tours",
    description: 'No credential. Only tours with `isPublic: true`, newest first (at most 500).',
    tags,
    access: 'public',
    params: SlugParams,
    success: { status: 200, description: 'The published tours.', schema: TourSchema, list: 'plain' },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await listPublicTours(use, params.workspaceSlug));
    },
  }),
  defineRoute({
    operationId: 'getPublicTour',
    method: 'get',
    path: '/public/{workspaceSlug}/tours/{tourSlug}',
    summary: 'Get a published tour by its slug',
    description: 'No credential. An unpublished tour answers 404 like an unknown one.',
    tags,
    access: 'public',
    params: TourSlugParams,
    success: { status: 200, description: 'The tour.', schema: TourSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getPublicTour(use, params.workspaceSlug, params.tourSlug));
    },
  }),
  defineRoute({
    operationId: 'listPublicAvailability',
    method: 'get',
    path: '/public/{workspaceSlug}/tours/{tourSlug}/availability',
    summary: 'List the bookable departures of a published tour',
    description:
      'No credential. Only departures a guest can book now: SCHEDULED or DELAYED, starting in the future, before their booking cutoff. Ordered by start time (at most 500). `from`/`to` are inclusive UTC dates.',
    tags,
    access: 'public',
    params: TourSlugParams,
    query: PublicAvailabilityQuerySchema,
    success: {
      status: 200,
      description: 'Bookable departures: seats left and status, never staff or booked counts.',
      schema: PublicDepartureSchema,
      list: 'plain',
    },
    errors: [404],
    async handle({ use, params, query }) {
      const filter = { ...(query.from && { from: query.from }), ...(query.to && { to: query.to }) };
      return toReply(await listPublicAvailability(use, params.workspaceSlug, params.tourSlug, filter));
    },
  }),
];
