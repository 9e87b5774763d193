import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, collect, idempotencyKey, type Schemas } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading, Success } from '../components/feedback';
import { SelectField, TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { browserZone, formatDateTime } from '../format';
import { canWrite } from '../permissions';
import { Link } from '../router';
import { useWorkspace } from '../workspace';

type Incident = Schemas['Incident'];
const SEVERITIES: Incident['severity'][] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
const STATUSES: Incident['status'][] = ['OPEN', 'INVESTIGATING', 'RESOLVED', 'CLOSED'];
const words = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

/** What went wrong on the road, how bad, and whether it is handled. */
export function IncidentsPage() {
  const { workspaceId, role } = useWorkspace();
  const incidents = useQuery({
    queryKey: [workspaceId, 'incidents'],
    queryFn: () =>
      collect(
        async (cursor) =>
          call(
            api.GET('/workspaces/{workspaceId}/incidents', {
              params: { path: { workspaceId }, query: { limit: 100, ...(cursor && { cursor }) } },
            }),
          ),
        5,
      ),
  });
  const writable = canWrite(role, 'incidents');
  return (
    <>
      <PageHeader title="Incidents" />
      {writable && <ReportIncident />}
      <Section title="Reported">
        <ErrorNotice error={incidents.error} />
        {incidents.isPending ? (
          <Loading what="Loading incidents" />
        ) : !incidents.data?.length ? (
          <Empty>No incidents reported.</Empty>
        ) : (
          <ul className="cards">
            {incidents.data.map((incident) => (
              <li key={incident.id} className="card">
                <IncidentCard incident={incident} writable={writable} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function IncidentCard({ incident, writable }: { incident: Incident; writable: boolean }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: async (status: Incident['status']) =>
      call(
        api.PATCH('/workspaces/{workspaceId}/incidents/{incidentId}', {
          params: { path: { workspaceId, incidentId: incident.id } },
          body: { status },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [workspaceId, 'incidents'] }),
  });
  return (
    <>
      <h3 className="card-title">{incident.title}</h3>
      <p>
        <Badge value={incident.severity} label="Severity" /> <Badge value={incident.status} label="Status" />{' '}
        <span className="muted small">
          {formatDateTime(incident.occurredAt, browserZone())} · reported by {incident.reportedBy}
        </span>
      </p>
      {incident.description && <p>{incident.description}</p>}
      {incident.availabilityId && (
        <p>
          <Link to={`/${workspaceId}/departures/${incident.availabilityId}`}>The departure</Link>
        </p>
      )}
      {writable && incident.status !== 'CLOSED' && (
        <>
          <ErrorNotice error={update.error} />
          <SelectField
            label="Status"
            options={STATUSES.map((s) => [s, words(s)] as const)}
            value={incident.status}
            disabled={update.isPending}
            onChange={(e) => update.mutate(e.target.value as Incident['status'])}
          />
        </>
      )}
    </>
  );
}

function ReportIncident() {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<Incident['severity']>('LOW');
  const [description, setDescription] = useState('');
  const [availabilityId, setAvailabilityId] = useState('');
  const report = useMutation({
    mutationFn: async () =>
      call(
        api.POST('/workspaces/{workspaceId}/incidents', {
          params: { path: { workspaceId }, header: { 'Idempotency-Key': idempotencyKey() } },
          body: {
            title,
            severity,
            occurredAt: new Date().toISOString(),
            ...(description && { description }),
            ...(availabilityId && { availabilityId }),
          },
        }),
      ),
    onSuccess: () => {
      setTitle('');
      setDescription('');
      return queryClient.invalidateQueries({ queryKey: [workspaceId, 'incidents'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    report.mutate();
  };
  const err = report.error;
  return (
    <Section title="Report an incident">
      <form className="form" onSubmit={submit} aria-label="Report an incident">
        {report.isSuccess && <Success>Reported.</Success>}
        <ErrorNotice error={err} />
        <div className="grid">
          <TextField
            label="What happened"
            required
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            field="title"
            error={err}
          />
          <SelectField
            label="Severity"
            hint="High and critical alert webhook receivers."
            options={SEVERITIES.map((s) => [s, words(s)] as const)}
            value={severity}
            onChange={(e) => setSeverity(e.target.value as Incident['severity'])}
            field="severity"
            error={err}
          />
          <TextField
            label="Departure id (optional)"
            placeholder="avl_…"
            value={availabilityId}
            onChange={(e) => setAvailabilityId(e.target.value)}
            field="availabilityId"
            error={err}
          />
        </div>
        <div className="field">
          <label htmlFor="incident-description">Details</label>
          <textarea
            id="incident-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <button type="submit" className="button-primary" disabled={report.isPending}>
          Report incident
        </button>
      </form>
    </Section>
  );
}
