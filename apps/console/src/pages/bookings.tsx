import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { paths } from '@travelops/client';
import { type FormEvent, useState } from 'react';
import { api, call, type Schemas } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading } from '../components/feedback';
import { SelectField, TextField } from '../components/field';
import { PageHeader } from '../components/page';
import { formatDateTime, formatMoney } from '../format';
import { type Booking, type Tour, useTourMap } from '../queries';
import { Link, navigate, useLocation } from '../router';
import { useWorkspace } from '../workspace';

type Query = NonNullable<paths['/workspaces/{workspaceId}/bookings']['get']['parameters']['query']>;

const STATUS_OPTIONS = [
  ['', 'Any status'],
  ...['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'].map((s) => [s, words(s)] as const),
] as const;
const PAYMENT_OPTIONS = [
  ['', 'Any payment'],
  ...['UNPAID', 'PENDING', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].map((s) => [s, words(s)] as const),
] as const;
const SORT_OPTIONS = [
  ['-createdAt', 'Newest first'],
  ['createdAt', 'Oldest first'],
  ['startsAt', 'Departure, soonest first'],
  ['-startsAt', 'Departure, latest first'],
  ['-totalAmount', 'Amount, highest first'],
  ['totalAmount', 'Amount, lowest first'],
  ['-updatedAt', 'Recently changed'],
] as const;

function words(value: string) {
  return value.charAt(0) + value.slice(1).toLowerCase().replaceAll('_', ' ');
}

/** Every booking, filtered and sorted as listBookings allows, or one customer's. */
export function BookingsPage() {
  const { workspaceId } = useWorkspace();
  const { search } = useLocation();
  const filters = Object.fromEntries(
    ['status', 'paymentStatus', 'from', 'to', 'sort', 'externalReference', 'customer'].map((k) => [
      k,
      search.get(k) ?? '',
    ]),
  ) as Record<string, string>;
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    navigate(`/${workspaceId}/bookings${next.size ? `?${next}` : ''}`, { replace: true });
  };
  return (
    <>
      <PageHeader title="Bookings" />
      <form className="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label="Status"
          options={STATUS_OPTIONS}
          value={filters.status}
          onChange={(e) => set('status', e.target.value)}
        />
        <SelectField
          label="Payment"
          options={PAYMENT_OPTIONS}
          value={filters.paymentStatus}
          onChange={(e) => set('paymentStatus', e.target.value)}
        />
        <TextField
          label="Departing from"
          type="date"
          value={filters.from}
          onChange={(e) => set('from', e.target.value)}
        />
        <TextField
          label="Departing to"
          type="date"
          value={filters.to}
          onChange={(e) => set('to', e.target.value)}
        />
        <SelectField
          label="Sort"
          options={SORT_OPTIONS}
          value={filters.sort || '-createdAt'}
          onChange={(e) => set('sort', e.target.value)}
        />
        <TextField
          label="Partner reference"
          value={filters.externalReference}
          onChange={(e) => set('externalReference', e.target.value)}
        />
      </form>
      <CustomerSearch chosen={filters.customer ?? ''} onChoose={(id) => set('customer', id)} />
      {filters.customer ? (
        <CustomerBookings customerId={filters.customer} />
      ) : (
        <BookingList filters={filters} />
      )}
    </>
  );
}

function BookingList({ filters }: { filters: Record<string, string> }) {
  const { workspaceId } = useWorkspace();
  const query: Query = {
    limit: 25,
    ...(filters.status && { status: filters.status as Query['status'] }),
    ...(filters.paymentStatus && { paymentStatus: filters.paymentStatus as Query['paymentStatus'] }),
    ...(filters.from && { from: filters.from }),
    ...(filters.to && { to: filters.to }),
    ...(filters.sort && { sort: filters.sort as Query['sort'] }),
    ...(filters.externalReference && { externalReference: filters.externalReference }),
  };
  const pages = useInfiniteQuery({
    queryKey: [workspaceId, 'bookings', query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/workspaces/{workspaceId}/bookings', {
          params: { path: { workspaceId }, query: { ...query, ...(pageParam && { cursor: pageParam }) } },
        }),
      ),
    getNextPageParam: (last) =>
      last.pagination.hasMore ? (last.pagination.nextCursor ?? undefined) : undefined,
  });
  if (pages.isPending) return <Loading what="Loading bookings" />;
  if (pages.isError) return <ErrorNotice error={pages.error} />;
  const bookings = pages.data.pages.flatMap((p) => p.data);
  return (
    <>
      <BookingTable bookings={bookings} />
      {pages.hasNextPage && (
        <button type="button" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      )}
    </>
  );
}

function BookingTable({ bookings }: { bookings: Booking[] }) {
  const { workspaceId } = useWorkspace();
  const tours = useTourMap();
  if (bookings.length === 0) return <Empty>No bookings match.</Empty>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Lead traveller</th>
            <th scope="col">Tour and departure</th>
            <th scope="col">Seats</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {bookings.map((b) => {
            const tour = tours?.get(b.tourId) as Tour | undefined;
            return (
              <tr key={b.id}>
                <th scope="row">
                  <Link to={`/${workspaceId}/bookings/${b.id}`}>{b.participants[0]?.name ?? b.id}</Link>
                </th>
                <td>
                  {tour?.name ?? '…'}
                  <br />
                  <span className="small muted">
                    {formatDateTime(b.startsAt, tour?.timeZone ?? 'UTC', { zone: true })}
                  </span>
                </td>
                <td>{b.participantCount}</td>
                <td>{formatMoney(b.totalAmount, b.currency)}</td>
                <td>
                  <Badge value={b.status} label="Status" /> <Badge value={b.paymentStatus} label="Payment" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Find a customer by name, e-mail or phone, and list only their bookings. */
function CustomerSearch({ chosen, onChoose }: { chosen: string; onChoose: (customerId: string) => void }) {
  const { workspaceId } = useWorkspace();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const found = useQuery({
    queryKey: [workspaceId, 'customers', q],
    enabled: q.length > 0,
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/customers', {
            params: { path: { workspaceId }, query: { q, limit: 10 } },
          }),
        )
      ).data,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(text.trim());
  };
  return (
    <form className="search" aria-label="Bookings of a customer" onSubmit={submit}>
      <TextField
        label="Customer"
        placeholder="Name, e-mail or phone"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit">Find customer</button>
      {chosen && (
        <button type="button" onClick={() => onChoose('')}>
          Show all bookings
        </button>
      )}
      {found.isFetching && <Loading what="Searching" />}
      <ErrorNotice error={found.error} />
      {found.data && (
        <ul className="list" aria-label="Customers found">
          {found.data.length === 0 && <li>No customer matches “{q}”.</li>}
          {found.data.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="button-link"
                onClick={() => onChoose(c.id)}
                aria-pressed={chosen === c.id}
              >
                {c.name} · {c.email}
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

/** A customer's bookings, from their timeline (listBookings has no customer filter). */
function CustomerBookings({ customerId }: { customerId: string }) {
  const { workspaceId } = useWorkspace();
  const bookings = useQuery({
    queryKey: [workspaceId, 'customer-bookings', customerId],
    queryFn: async () => {
      const timeline = await call(
        api.GET('/workspaces/{workspaceId}/customers/{customerId}/timeline', {
          params: { path: { workspaceId, customerId }, query: { limit: 100 } },
        }),
      );
      const ids = [
        ...new Set(
          timeline.data.flatMap((e: Schemas['TimelineEntry']) => (e.bookingId ? [e.bookingId] : [])),
        ),
      ];
      const found = await Promise.all(
        ids.slice(0, 50).map(
          async (bookingId) =>
            (
              await call(
                api.GET('/workspaces/{workspaceId}/bookings/{bookingId}', {
                  params: { path: { workspaceId, bookingId } },
                }),
              )
            ).data,
        ),
      );
      return found.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
  });
  if (bookings.isPending) return <Loading what="Loading the customer’s bookings" />;
  if (bookings.isError) return <ErrorNotice error={bookings.error} />;
  return <BookingTable bookings={bookings.data} />;
}
