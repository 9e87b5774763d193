import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading, Success } from '../components/feedback';
import { TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { browserZone, formatDateTime } from '../format';
import { navigate } from '../router';
import { useWorkspace } from '../workspace';

/** One endpoint: its deliveries (resend any), its secret (rotate), and removal. */
export function WebhookPage({ endpointId }: { endpointId: string }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const endpoint = useQuery({
    queryKey: [workspaceId, 'webhook', endpointId],
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/webhook-endpoints/{endpointId}', {
            params: { path: { workspaceId, endpointId } },
          }),
        )
      ).data,
  });
  const remove = useMutation({
    mutationFn: async () =>
      call(
        api.DELETE('/workspaces/{workspaceId}/webhook-endpoints/{endpointId}', {
          params: { path: { workspaceId, endpointId } },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'webhooks'] });
      navigate(`/${workspaceId}/webhooks`);
    },
  });
  if (endpoint.isPending) return <Loading what="Loading the endpoint" />;
  if (endpoint.isError) return <ErrorNotice error={endpoint.error} />;
  const e = endpoint.data;
  return (
    <>
      <PageHeader title={e.url}>
        <button
          type="button"
          className="button-danger"
          onClick={() => {
            if (window.confirm('Delete this endpoint? Events stop going to it.')) remove.mutate();
          }}
        >
          Delete endpoint
        </button>
      </PageHeader>
      <ErrorNotice error={remove.error} />
      <p>
        {e.enabled ? <Badge value="ENABLED" /> : <Badge value="DISABLED" />} {e.events.join(', ')}
      </p>
      {e.previousSecretExpiresAt && (
        <p className="muted">
          The previous secret still signs until {formatDateTime(e.previousSecretExpiresAt, browserZone())}.
        </p>
      )}
      <RotateSecret endpointId={e.id} />
      <Deliveries endpointId={e.id} />
    </>
  );
}

function RotateSecret({ endpointId }: { endpointId: string }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [hours, setHours] = useState('24');
  const rotate = useMutation({
    mutationFn: async () =>
      (
        await call(
          api.POST('/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/rotate-secret', {
            params: { path: { workspaceId, endpointId } },
            body: { overlapHours: Number(hours) },
          }),
        )
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [workspaceId, 'webhook', endpointId] }),
  });
  return (
    <Section title="Signing secret">
      {rotate.data ? (
        <SecretOnce
          title="New signing secret"
          secret={rotate.data.secret}
          what="signing"
          onDone={() => rotate.reset()}
        />
      ) : (
        <form
          className="form form-row"
          aria-label="Rotate the signing secret"
          onSubmit={(ev) => {
            ev.preventDefault();
            rotate.mutate();
          }}
        >
          <ErrorNotice error={rotate.error} />
          <TextField
            label="Old secret keeps signing for (hours)"
            type="number"
            min={0}
            value={hours}
            onChange={(ev) => setHours(ev.target.value)}
            field="overlapHours"
            error={rotate.error}
          />
          <button type="submit" disabled={rotate.isPending}>
            Rotate secret
          </button>
        </form>
      )}
    </Section>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: [workspaceId, 'deliveries', endpointId],
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/deliveries', {
            params: { path: { workspaceId, endpointId }, query: { limit: 50 } },
          }),
        )
      ).data,
  });
  const resend = useMutation({
    mutationFn: async (deliveryId: string) =>
      call(
        api.POST('/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/resend', {
          params: { path: { workspaceId, endpointId, deliveryId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [workspaceId, 'deliveries', endpointId] }),
  });
  const zone = browserZone();
  return (
    <Section title="Deliveries">
      <ErrorNotice error={deliveries.error ?? resend.error} />
      {resend.isSuccess && <Success>Queued to send again.</Success>}
      {deliveries.isPending ? (
        <Loading what="Loading deliveries" />
      ) : !deliveries.data?.length ? (
        <Empty>Nothing delivered yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    {d.eventType}
                    <br />
                    <span className="small muted">{formatDateTime(d.createdAt, zone)}</span>
                  </th>
                  <td>
                    <Badge value={d.status} />
                  </td>
                  <td>{d.attempts}</td>
                  <td className="small">
                    {d.lastStatusCode ?? ''} {d.lastError ?? ''}
                    {d.nextAttemptAt && ` · next ${formatDateTime(d.nextAttemptAt, zone)}`}
                  </td>
                  <td>
                    <button type="button" disabled={resend.isPending} onClick={() => resend.mutate(d.id)}>
                      Resend <span className="visually-hidden">{d.eventType}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
