import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, collect } from '../api';
import { Empty, ErrorNotice, Loading, Success } from '../components/feedback';
import { PageHeader, Section } from '../components/page';
import { browserZone, formatDateTime } from '../format';
import { canWrite } from '../permissions';
import { Link } from '../router';
import { useWorkspace } from '../workspace';

/** A customer and everything that happened with them, newest first. */
export function CustomerPage({ customerId }: { customerId: string }) {
  const { workspaceId, role } = useWorkspace();
  const customer = useQuery({
    queryKey: [workspaceId, 'customer', customerId],
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/customers/{customerId}', {
            params: { path: { workspaceId, customerId } },
          }),
        )
      ).data,
  });
  const timeline = useQuery({
    queryKey: [workspaceId, 'timeline', customerId],
    queryFn: () =>
      collect(
        async (cursor) =>
          call(
            api.GET('/workspaces/{workspaceId}/customers/{customerId}/timeline', {
              params: { path: { workspaceId, customerId }, query: { limit: 100, ...(cursor && { cursor }) } },
            }),
          ),
        5,
      ),
  });
  if (customer.isPending) return <Loading what="Loading the customer" />;
  if (customer.isError) return <ErrorNotice error={customer.error} />;
  const c = customer.data;
  const zone = browserZone();
  return (
    <>
      <PageHeader title={c.name} />
      <dl className="facts">
        <div>
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${c.email}`}>{c.email}</a>
          </dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>{c.phone ?? 'none'}</dd>
        </div>
        <div>
          <dt>Bookings</dt>
          <dd>
            <Link to={`/${workspaceId}/bookings?customer=${c.id}`}>{c.totalBookings}</Link>
          </dd>
        </div>
        <div>
          <dt>Tags</dt>
          <dd>{c.tags.length ? c.tags.join(', ') : 'none'}</dd>
        </div>
        <div>
          <dt>Marketing e-mail</dt>
          <dd>{c.marketingConsent ? 'agreed' : 'not agreed'}</dd>
        </div>
      </dl>
      {canWrite(role, 'customers') && <AddNote customerId={c.id} />}
      <Section title="Timeline">
        {timeline.isPending ? (
          <Loading what="Loading the timeline" />
        ) : timeline.isError ? (
          <ErrorNotice error={timeline.error} />
        ) : timeline.data.length === 0 ? (
          <Empty>Nothing has happened yet.</Empty>
        ) : (
          <ol className="timeline">
            {timeline.data.map((entry) => (
              <li key={`${entry.type}-${entry.id}`}>
                <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt, zone)}</time>{' '}
                {entry.summary}
                {entry.bookingId && (
                  <>
                    {' '}
                    <Link to={`/${workspaceId}/bookings/${entry.bookingId}`}>booking</Link>
                  </>
                )}
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}

function AddNote({ customerId }: { customerId: string }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const add = useMutation({
    mutationFn: async () =>
      call(
        api.POST('/workspaces/{workspaceId}/customers/{customerId}/notes', {
          params: { path: { workspaceId, customerId } },
          body: { body },
        }),
      ),
    onSuccess: () => {
      setBody('');
      return queryClient.invalidateQueries({ queryKey: [workspaceId, 'timeline', customerId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Add a note">
      {add.isSuccess && <Success>Note added.</Success>}
      <ErrorNotice error={add.error} />
      <div className="field">
        <label htmlFor="customer-note">Note</label>
        <textarea
          id="customer-note"
          rows={2}
          required
          value={body}
          onChange={(e) => setBody(e.target.value)}
        />
      </div>
      <button type="submit" disabled={add.isPending}>
        Add note
      </button>
    </form>
  );
}
