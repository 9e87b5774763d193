import { useQuery } from '@tanstack/react-query';
import { api, call, collect, type Schemas } from './api';
import { useWorkspace } from './workspace';

export type Tour = Schemas['Tour'];
export type Departure = Schemas['Availability'];
export type Booking = Schemas['Booking'];

// Lookups many pages share (names of tours, guides and vehicles); each is one cached query.

export function useTours() {
  const { workspaceId } = useWorkspace();
  return useQuery({
    queryKey: [workspaceId, 'tours'],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/tours', {
            params: { path: { workspaceId }, query: { limit: 100, ...(cursor && { cursor }) } },
          }),
        ),
      ),
  });
}

/** Tours by id, for rows that name a tour (its name, time zone and currency). */
export function useTourMap(): Map<string, Tour> | undefined {
  const tours = useTours();
  return tours.data && new Map(tours.data.map((tour) => [tour.id, tour]));
}

export function useGuides() {
  const { workspaceId } = useWorkspace();
  return useQuery({
    queryKey: [workspaceId, 'guides'],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/guides', {
            params: { path: { workspaceId }, query: { limit: 100, ...(cursor && { cursor }) } },
          }),
        ),
      ),
  });
}

export function useVehicles() {
  const { workspaceId } = useWorkspace();
  return useQuery({
    queryKey: [workspaceId, 'vehicles'],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/vehicles', {
            params: { path: { workspaceId }, query: { limit: 100, ...(cursor && { cursor }) } },
          }),
        ),
      ),
  });
}

/** Departures whose start falls between two UTC days (inclusive), every page. */
export function useDepartures(from: string, to: string, tourId?: string) {
  const { workspaceId } = useWorkspace();
  return useQuery({
    queryKey: [workspaceId, 'departures', from, to, tourId ?? null],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/availability', {
            params: {
              path: { workspaceId },
              query: { from, to, limit: 100, ...(tourId && { tourId }), ...(cursor && { cursor }) },
            },
          }),
        ),
      ),
  });
}

/** A departure's manifest as JSON (the same operation answers CSV when asked). */
export async function fetchManifest(
  workspaceId: string,
  availabilityId: string,
): Promise<Schemas['DepartureManifest']> {
  const answer = await call(
    api.GET('/workspaces/{workspaceId}/availability/{availabilityId}/manifest', {
      params: { path: { workspaceId, availabilityId } },
    }),
  );
  if (typeof answer === 'string') throw new Error('The manifest came as text, not JSON.');
  return answer.data;
}

export function useManifest(availabilityId: string) {
  const { workspaceId } = useWorkspace();
  return useQuery({
    queryKey: [workspaceId, 'manifest', availabilityId],
    queryFn: () => fetchManifest(workspaceId, availabilityId),
  });
}
