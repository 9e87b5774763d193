import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, collect, type Schemas } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading } from '../components/feedback';
import { fieldError, TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { Link } from '../router';
import { useWorkspace } from '../workspace';

type EventType = Schemas['WebhookEndpointCreate']['events'][number];
const EVENT_TYPES: readonly EventType[] = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.expired',
  'booking.completed',
  'booking.no_show',
  'booking.updated',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'incident.created',
];

/** Where events are delivered: endpoints, each with its signing secret and delivery log. */
export function WebhooksPage() {
  const { workspaceId } = useWorkspace();
  const endpoints = useQuery({
    queryKey: [workspaceId, 'webhooks'],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/webhook-endpoints', {
            params: { path: { workspaceId }, query: { limit: 100, ...(cursor && { cursor }) } },
          }),
        ),
      ),
  });
  return (
    <>
      <PageHeader title="Webhooks" />
      <CreateEndpoint />
      <Section title="Endpoints">
        <ErrorNotice error={endpoints.error} />
        {endpoints.isPending ? (
          <Loading what="Loading endpoints" />
        ) : !endpoints.data?.length ? (
          <Empty>No endpoints: events are not sent anywhere.</Empty>
        ) : (
          <ul className="cards">
            {endpoints.data.map((e) => (
              <li key={e.id} className="card">
                <h3 className="card-title">
                  <Link to={`/${workspaceId}/webhooks/${e.id}`}>{e.url}</Link>
                </h3>
                <p>
                  {e.enabled ? <Badge value="ENABLED" /> : <Badge value="DISABLED" />}{' '}
                  <span className="small">{e.events.join(', ')}</span>
                </p>
                {e.disabledReason && <p className="small">{e.disabledReason}</p>}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function CreateEndpoint() {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>(['booking.confirmed', 'booking.cancelled']);
  const create = useMutation({
    mutationFn: async () =>
      (
        await call(
          api.POST('/workspaces/{workspaceId}/webhook-endpoints', {
            params: { path: { workspaceId } },
            body: { url, events, ...(description && { description }) },
          }),
        )
      ).data,
    onSuccess: () => {
      setUrl('');
      setDescription('');
      return queryClient.invalidateQueries({ queryKey: [workspaceId, 'webhooks'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const eventsError = fieldError(create.error, 'events');
  return (
    <Section title="New endpoint">
      {create.data ? (
        <SecretOnce
          title={`Endpoint ${create.data.url} created`}
          secret={create.data.secret}
          what="signing"
          onDone={() => create.reset()}
        />
      ) : (
        <form className="form" onSubmit={submit} aria-label="New endpoint">
          <ErrorNotice error={create.error} />
          <div className="grid">
            <TextField
              label="URL"
              type="url"
              required
              placeholder="https://example.com/travelops/webhooks"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              field="url"
              error={create.error}
            />
            <TextField
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              field="description"
              error={create.error}
            />
          </div>
          <fieldset className="days">
            <legend>Events</legend>
            {EVENT_TYPES.map((type) => (
              <span key={type} className="check">
                <input
                  id={`event-${type}`}
                  type="checkbox"
                  checked={events.includes(type)}
                  onChange={(e) =>
                    setEvents((list) => (e.target.checked ? [...list, type] : list.filter((t) => t !== type)))
                  }
                />
                <label htmlFor={`event-${type}`}>{type}</label>
              </span>
            ))}
            {eventsError && <p className="field-error">{eventsError}</p>}
          </fieldset>
          <button type="submit" className="button-primary" disabled={create.isPending}>
            Create endpoint
          </button>
        </form>
      )}
    </Section>
  );
}
