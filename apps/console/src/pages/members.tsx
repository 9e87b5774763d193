import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, collect, type Role } from '../api';
import { Empty, ErrorNotice, Loading, Success } from '../components/feedback';
import { PageHeader } from '../components/page';
import { browserZone, formatDateTime } from '../format';
import { canWrite, roleName } from '../permissions';
import { useWorkspace } from '../workspace';

const ROLES: Role[] = ['READ_ONLY', 'OPERATIONS', 'ADMIN'];

/** Who belongs to the workspace, with what role; admins change roles and remove members. */
export function MembersPage() {
  const { workspaceId, role, memberId } = useWorkspace();
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: [workspaceId, 'members'],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/members', {
            params: { path: { workspaceId }, query: { limit: 100, ...(cursor && { cursor }) } },
          }),
        ),
      ),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [workspaceId, 'members'] });
  const changeRole = useMutation({
    mutationFn: async ({ id, role: next }: { id: string; role: Role }) =>
      (
        await call(
          api.PATCH('/workspaces/{workspaceId}/members/{memberId}', {
            params: { path: { workspaceId, memberId: id } },
            body: { role: next },
          }),
        )
      ).data,
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async ({ id }: { id: string; email: string }) =>
      call(
        api.DELETE('/workspaces/{workspaceId}/members/{memberId}', {
          params: { path: { workspaceId, memberId: id } },
        }),
      ),
    onSettled: refresh,
  });
  const manage = canWrite(role, 'members');
  return (
    <>
      <PageHeader title="Members" />
      <p className="muted">
        New members are added with the operator CLI (<code>npm run cli -- member:create</code>).
      </p>
      <ErrorNotice error={members.error ?? changeRole.error ?? remove.error} />
      {changeRole.isSuccess && (
        <Success>
          {changeRole.data.email} is now {roleName[changeRole.data.role]}; their sessions start again.
        </Success>
      )}
      {remove.isSuccess && <Success>{remove.variables.email} removed; their sessions ended.</Success>}
      {members.isPending ? (
        <Loading what="Loading members" />
      ) : !members.data?.length ? (
        <Empty>No members.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Member since</th>
                {manage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {members.data.map((m) => (
                <tr key={m.id}>
                  <th scope="row">
                    {m.email}
                    {m.id === memberId && <span className="muted"> (you)</span>}
                  </th>
                  <td>
                    {manage && m.id !== memberId ? (
                      <select
                        aria-label={`Role of ${m.email}`}
                        value={m.role}
                        disabled={changeRole.isPending}
                        onChange={(e) => changeRole.mutate({ id: m.id, role: e.target.value as Role })}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {roleName[r]}
                          </option>
                        ))}
                      </select>
                    ) : (
                      roleName[m.role]
                    )}
                  </td>
                  <td>{formatDateTime(m.createdAt, browserZone())}</td>
                  {manage && (
                    <td>
                      {m.id !== memberId && (
                        <button
                          type="button"
                          className="button-danger"
                          disabled={remove.isPending}
                          onClick={() => {
                            if (window.confirm(`Remove ${m.email} from the workspace?`))
                              remove.mutate({ id: m.id, email: m.email });
                          }}
                        >
                          Remove <span className="visually-hidden">{m.email}</span>
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
