import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../api';
import { Empty, ErrorNotice, Loading } from '../components/feedback';
import { TextField } from '../components/field';
import { PageHeader } from '../components/page';
import { Link, navigate, useLocation } from '../router';
import { useWorkspace } from '../workspace';

/** Customers, found by name, e-mail or phone. */
export function CustomersPage() {
  const { workspaceId } = useWorkspace();
  const { search } = useLocation();
  const q = search.get('q') ?? '';
  const [text, setText] = useState(q);
  const pages = useInfiniteQuery({
    queryKey: [workspaceId, 'customers', 'list', q],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/workspaces/{workspaceId}/customers', {
          params: {
            path: { workspaceId },
            query: { limit: 25, ...(q && { q }), ...(pageParam && { cursor: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) =>
      last.pagination.hasMore ? (last.pagination.nextCursor ?? undefined) : undefined,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/${workspaceId}/customers${text.trim() ? `?q=${encodeURIComponent(text.trim())}` : ''}`);
  };
  const customers = pages.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <>
      <PageHeader title="Customers" />
      <form className="search" aria-label="Customers" onSubmit={submit}>
        <TextField
          label="Search"
          placeholder="Name, e-mail or phone"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit">Search</button>
      </form>
      <ErrorNotice error={pages.error} />
      {pages.isPending ? (
        <Loading what="Loading customers" />
      ) : customers.length === 0 ? (
        <Empty>
          {q ? `No customer matches “${q}”.` : 'No customers yet: they appear with their first booking.'}
        </Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Phone</th>
                <th scope="col">Bookings</th>
              </tr>
            </thead>
            <tbody>
              {customers.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link to={`/${workspaceId}/customers/${c.id}`}>{c.name}</Link>
                  </th>
                  <td>{c.email}</td>
                  <td>{c.phone ?? <span className="muted">none</span>}</td>
                  <td>{c.totalBookings}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages.hasNextPage && (
        <button type="button" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          Show more
        </button>
      )}
    </>
  );
}
