import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ROLE_PERMISSIONS } from '@travelops/client';
import { type FormEvent, useState } from 'react';
import { api, call, collect, type Role, type TokenRole } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading, Success } from '../components/feedback';
import { SelectField, TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { browserZone, formatDateTime } from '../format';
import { canWrite, roleName } from '../permissions';
import { useWorkspace } from '../workspace';

const ROLE_OPTIONS = (Object.keys(ROLE_PERMISSIONS) as TokenRole[]).map(
  (role) => [role, roleName[role]] as const,
);

/** API keys for integrations: made with a role and a name, the secret shown once, revoked here. */
export function ApiKeysPage() {
  const { workspaceId, role } = useWorkspace();
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: [workspaceId, 'api-keys'],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/api-keys', {
            params: { path: { workspaceId }, query: { limit: 100, ...(cursor && { cursor }) } },
          }),
        ),
      ),
  });
  const revoke = useMutation({
    mutationFn: async (apiKeyId: string) =>
      call(
        api.DELETE('/workspaces/{workspaceId}/api-keys/{apiKeyId}', {
          params: { path: { workspaceId, apiKeyId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [workspaceId, 'api-keys'] }),
  });
  const zone = browserZone();
  const manage = canWrite(role, 'api-keys');

  return (
    <>
      <PageHeader title="API keys" />
      <p className="muted">
        Keys let your own systems call the API as this workspace. Each has a role; keep its secret on a
        server.
      </p>
      {manage && <CreateApiKey />}
      <Section title="Keys">
        <ErrorNotice error={keys.error ?? revoke.error} />
        {revoke.isSuccess && (
          <Success>Key {revoke.data.data.name} revoked: it is refused from now on.</Success>
        )}
        {keys.isPending ? (
          <Loading what="Loading keys" />
        ) : !keys.data?.length ? (
          <Empty>No API keys yet.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">{key.name}</th>
                    <td>{roleName[key.role]}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>
                      {key.lastUsedAt ? (
                        formatDateTime(key.lastUsedAt, zone)
                      ) : (
                        <span className="muted">never</span>
                      )}
                    </td>
                    <td>{formatDateTime(key.createdAt, zone)}</td>
                    <td>
                      {key.revokedAt ? (
                        <Badge value="REVOKED" />
                      ) : (
                        manage && (
                          <button
                            type="button"
                            className="button-danger"
                            disabled={revoke.isPending}
                            onClick={() => {
                              if (window.confirm(`Revoke “${key.name}”? Requests with it fail at once.`))
                                revoke.mutate(key.id);
                            }}
                          >
                            Revoke <span className="visually-hidden">{key.name}</span>
                          </button>
                        )
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}

function CreateApiKey() {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('READ_ONLY');
  const [expiresInDays, setExpiresInDays] = useState('');
  const create = useMutation({
    mutationFn: async () =>
      (
        await call(
          api.POST('/workspaces/{workspaceId}/api-keys', {
            params: { path: { workspaceId } },
            body: { name, role, ...(expiresInDays && { expiresInDays: Number(expiresInDays) }) },
          }),
        )
      ).data,
    onSuccess: () => {
      setName('');
      setExpiresInDays('');
      return queryClient.invalidateQueries({ queryKey: [workspaceId, 'api-keys'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Section title="New key">
      {create.data ? (
        <SecretOnce
          title={`Key “${create.data.name}” created`}
          secret={create.data.secret}
          what="key"
          onDone={() => create.reset()}
        />
      ) : (
        <form onSubmit={submit} className="form-row">
          <ErrorNotice error={create.error} />
          <TextField
            label="Name"
            hint="What uses it, e.g. “Channel manager”."
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            field="name"
            error={create.error}
          />
          <SelectField
            label="Role"
            options={ROLE_OPTIONS}
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            field="role"
            error={create.error}
          />
          <TextField
            label="Expires after (days)"
            hint="Empty: never."
            type="number"
            min={1}
            inputMode="numeric"
            value={expiresInDays}
            onChange={(e) => setExpiresInDays(e.target.value)}
            field="expiresInDays"
            error={create.error}
          />
          <button type="submit" className="button-primary" disabled={create.isPending}>
            Create key
          </button>
        </form>
      )}
    </Section>
  );
}
