import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api';
import { ErrorNotice, Loading, Success } from '../../components/feedback';
import { SelectField } from '../../components/field';
import { Section } from '../../components/page';
import { localDate } from '../../format';
import { type Departure, type Tour, useGuides, useVehicles } from '../../queries';
import { useWorkspace } from '../../workspace';

// A departure's crew and resources, chosen among those free at its time.

/** Whether [aStart, aEnd) and [bStart, bEnd) share an instant (ISO strings or ms). */
const overlaps = (aStart: number, aEnd: number, bStart: string, bEnd: string) =>
  aStart < Date.parse(bEnd) && Date.parse(bStart) < aEnd;

/**
 * Guides and vehicles free for this departure: none of their other departures of its local day
 * (the resource calendar, in the tour's zone) overlaps it, nor a guide's time off. The server
 * still decides (a vehicle's turnaround, a departure of the next day): its refusal names the
 * other departure. The one assigned now stays listed.
 */
function useFreeForDeparture(departure: Departure, tour: Tour) {
  const { workspaceId } = useWorkspace();
  const date = localDate(departure.startsAt, tour.timeZone);
  const day = useQuery({
    queryKey: [workspaceId, 'resource-calendar', date, tour.timeZone],
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/resource-calendar', {
            params: { path: { workspaceId }, query: { date, timeZone: tour.timeZone } },
          }),
        )
      ).data,
  });
  const start = Date.parse(departure.startsAt);
  const end = start + tour.durationMinutes * 60_000;
  const busyGuides = new Set<string>();
  const busyResources = new Set<string>();
  for (const guide of day.data?.guides ?? []) {
    const other = guide.departures.some(
      (d) => d.availabilityId !== departure.id && overlaps(start, end, d.startsAt, d.endsAt),
    );
    const away = guide.timeOff.some((off) => overlaps(start, end, off.startsAt, off.endsAt));
    if (other || away) busyGuides.add(guide.memberId);
  }
  for (const resource of day.data?.resources ?? []) {
    if (resource.sharing !== 'EXCLUSIVE') continue;
    const other = resource.departures.some(
      (d) => d.availabilityId !== departure.id && overlaps(start, end, d.startsAt, d.endsAt),
    );
    if (other) busyResources.add(resource.resourceId);
  }
  // Resources other than vehicles (those have their own field): the departure's checkboxes.
  const others = (day.data?.resources ?? []).filter((resource) => resource.kind !== 'VEHICLE');
  return { isPending: day.isPending, busyGuides, busyResources, others };
}

export function Crew({ departure, tour }: { departure: Departure; tour: Tour }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const guides = useGuides();
  const vehicles = useVehicles();
  const free = useFreeForDeparture(departure, tour);
  const [guideId, setGuideId] = useState(departure.guideId ?? '');
  const [driverId, setDriverId] = useState(departure.driverId ?? '');
  const [vehicleId, setVehicleId] = useState(departure.vehicleId ?? '');
  // The checked resources among the departure's (vehicles and others not shown stay as they are).
  const [resourceIds, setResourceIds] = useState<string[]>(departure.resourceIds);
  const shown = new Set(free.others.map((resource) => resource.resourceId));
  const changedResources =
    resourceIds.length !== departure.resourceIds.length ||
    resourceIds.some((id) => !departure.resourceIds.includes(id));
  const nextResourceIds = [
    ...departure.resourceIds.filter((id) => !shown.has(id)),
    ...resourceIds.filter((id) => shown.has(id)),
  ];
  const assign = useMutation({
    mutationFn: async () =>
      call(
        api.PATCH('/workspaces/{workspaceId}/availability/{availabilityId}', {
          params: { path: { workspaceId, availabilityId: departure.id } },
          body: {
            guideId: guideId || null,
            driverId: driverId || null,
            vehicleId: vehicleId || null,
            ...(changedResources && { resourceIds: nextResourceIds }),
          },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'manifest', departure.id] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'departures'] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'resource-calendar'] });
    },
  });
  if (guides.isPending || vehicles.isPending || free.isPending)
    return <Loading what="Loading guides and vehicles" />;
  const assigned = new Set([departure.guideId, departure.driverId, departure.vehicleId]);
  const freeGuides = (guides.data ?? []).filter(
    (g) => !free.busyGuides.has(g.memberId) || assigned.has(g.memberId),
  );
  const freeVehicles = (vehicles.data ?? []).filter(
    (v) => !free.busyResources.has(v.id) || assigned.has(v.id),
  );
  const freeOthers = free.others.filter(
    (r) => !free.busyResources.has(r.resourceId) || departure.resourceIds.includes(r.resourceId),
  );
  const hidden =
    (guides.data?.length ?? 0) -
    freeGuides.length +
    ((vehicles.data?.length ?? 0) - freeVehicles.length) +
    (free.others.length - freeOthers.length);
  const people = [['', 'Nobody'] as const, ...freeGuides.map((g) => [g.memberId, g.displayName] as const)];
  const cars = [
    ['', 'None'] as const,
    ...freeVehicles.map(
      (v) =>
        [
          v.id,
          `${v.name} (${v.seats} seats${v.status === 'ACTIVE' ? '' : `, ${v.status.toLowerCase()}`})`,
        ] as const,
    ),
  ];
  const err = assign.error;
  return (
    <Section title="Guide, driver and vehicle">
      <form
        className="form"
        aria-label="Guide, driver and vehicle"
        onSubmit={(e) => {
          e.preventDefault();
          assign.mutate();
        }}
      >
        <fieldset>
          <legend className="visually-hidden">Assignments</legend>
          {assign.isSuccess && <Success>Assignments saved.</Success>}
          <ErrorNotice error={err} title="Could not assign." />
          {hidden > 0 && (
            <p className="muted" data-testid="busy-hidden">
              Only those free at this time are listed: {hidden} busy (another departure, or time off) are left
              out.
            </p>
          )}
          <div className="grid">
            <SelectField
              label="Guide"
              options={people}
              value={guideId}
              onChange={(e) => setGuideId(e.target.value)}
              field="guideId"
              error={err}
            />
            <SelectField
              label="Driver"
              options={people}
              value={driverId}
              onChange={(e) => setDriverId(e.target.value)}
              field="driverId"
              error={err}
            />
            <SelectField
              label="Vehicle"
              options={cars}
              value={vehicleId}
              onChange={(e) => setVehicleId(e.target.value)}
              field="vehicleId"
              error={err}
            />
          </div>
          {freeOthers.length > 0 && (
            <fieldset className="days">
              <legend>Resources (boats, rooms, equipment)</legend>
              {freeOthers.map((resource) => (
                <span key={resource.resourceId} className="check">
                  <input
                    id={`resource-${resource.resourceId}`}
                    type="checkbox"
                    checked={resourceIds.includes(resource.resourceId)}
                    onChange={(e) =>
                      setResourceIds((list) =>
                        e.target.checked
                          ? [...list, resource.resourceId]
                          : list.filter((id) => id !== resource.resourceId),
                      )
                    }
                  />
                  <label htmlFor={`resource-${resource.resourceId}`}>
                    {resource.name}
                    {resource.seatsTotal !== null && ` (${resource.seatsTotal} seats`}
                    {resource.seatsTotal !== null &&
                      (resource.sharing === 'SHARED_SEATS' ? ', shared)' : ')')}
                  </label>
                </span>
              ))}
            </fieldset>
          )}
          <button type="submit" className="button-primary" disabled={assign.isPending}>
            Save assignments
          </button>
        </fieldset>
      </form>
    </Section>
  );
}
