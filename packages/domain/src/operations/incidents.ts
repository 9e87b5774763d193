import type { Actor } from '../bookings/index.js';
import { appendEvent } from '../events/index.js';
import { notFound, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { IncidentFilter, IncidentPatch, OperationsDeps } from './ports.js';
import { orNotFound, unknownRef } from './results.js';
import { ALERTING_SEVERITIES, canMoveIncident } from './rules.js';
import type { CreateIncidentInput, Incident, UpdateIncidentInput } from './schemas.js';

// ---- Incidents ------------------------------------------------------------------------------

export function createIncident(
  deps: OperationsDeps<'departures' | 'bookings' | 'incidents' | 'outbox'>,
  workspaceId: string,
  actor: Actor,
  input: CreateIncidentInput,
): Promise<Result<Incident>> {
  return deps.uow.transaction(async ({ stores }) => {
    const availabilityId = input.availabilityId ?? null;
    const bookingId = input.bookingId ?? null;
    if (availabilityId && !(await stores.departures.findById(workspaceId, availabilityId))) {
      return fail(unknownRef('departure', 'availabilityId'));
    }
    const booking = bookingId ? await stores.bookings.findById(workspaceId, bookingId) : null;
    if (bookingId && !booking) return fail(unknownRef('booking', 'bookingId'));
    if (booking && availabilityId && booking.availabilityId !== availabilityId) {
      return fail(unprocessable('The booking is not on this departure.', 'bookingId', 'different_departure'));
    }
    const incident = await stores.incidents.insert(workspaceId, {
      id: newId('incident'),
      // A booking pins its departure, so filters by departure find it.
      availabilityId: availabilityId ?? booking?.availabilityId ?? null,
      bookingId,
      severity: input.severity,
      status: 'OPEN',
      title: input.title,
      description: input.description ?? null,
      occurredAt: new Date(input.occurredAt).toISOString(),
      reportedBy: input.reportedBy ?? actor.id ?? actor.type,
      resolvedAt: null,
    });
    if (ALERTING_SEVERITIES.includes(incident.severity)) {
      await appendEvent(
        { outbox: stores.outbox, clock: deps.clock },
        { type: 'incident.created', workspaceId, aggregateId: incident.id, data: incident },
      );
    }
    return ok(incident);
  });
}

export async function getIncident(deps: OperationsDeps<'incidents'>, workspaceId: string, id: string) {
  return orNotFound(await deps.uow.stores.incidents.findById(workspaceId, id), 'incident');
}

export function listIncidents(
  deps: OperationsDeps<'incidents'>,
  workspaceId: string,
  filter: IncidentFilter,
  page: PageRequest,
) {
  return deps.uow.stores.incidents.list(workspaceId, filter, page);
}

export function updateIncident(
  deps: OperationsDeps<'incidents'>,
  workspaceId: string,
  id: string,
  input: UpdateIncidentInput,
): Promise<Result<Incident>> {
  return deps.uow.transaction(async ({ stores }) => {
    const current = await stores.incidents.lock(workspaceId, id);
    if (!current) return fail(notFound('incident'));
    const patch: IncidentPatch = { ...input };
    if (input.status && !canMoveIncident(current.status, input.status)) {
      return fail(
        unprocessable(
          `A ${current.status} incident cannot become ${input.status}.`,
          'status',
          'invalid_transition',
        ),
      );
    }
    if (input.status && input.status !== current.status) {
      const closing = input.status === 'RESOLVED' || input.status === 'CLOSED';
      patch.resolvedAt = closing ? (current.resolvedAt ?? deps.clock.now().toISOString()) : null;
    }
    return ok(await stores.incidents.update(workspaceId, id, patch));
  });
}
