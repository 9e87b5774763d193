import { issueApiToken, revokeApiToken } from '@travelops/auth';
import {
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  CreateApiKeySchema,
  listApiKeys,
  toApiKeyView,
} from '@travelops/domain/access';
import { ok, PageQuerySchema } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['API keys'];
const access = { permission: 'api-keys:manage', sessionOnly: true } as const;

export const apiKeyRoutes = [
  defineRoute({
    operationId: 'listApiKeys',
    method: 'get',
    path: '/workspaces/{workspaceId}/api-keys',
    summary: "List the workspace's API keys, newest first",
    description:
      'Session only, ADMIN. Live keys (revoked ones disappear, expired ones stay until revoked) with name, role, prefix, last use (to the minute) and expiry; never a secret.',
    tags,
    access,
    params: WorkspaceParams,
    query: PageQuerySchema,
    success: { status: 200, description: 'A page of API keys.', schema: ApiKeySchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, pageRequest, pageReply }) {
      return ok(pageReply(await listApiKeys(use, params.workspaceId, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createApiKey',
    method: 'post',
    path: '/workspaces/{workspaceId}/api-keys',
    summary: 'Create an API key',
    description:
      'Session only, ADMIN (a bearer token cannot mint tokens: 403). The key acts in this workspace with the chosen role. Its secret (`tops_` and 43 base62 characters, about 256 bits) is in this answer only; the service keeps its SHA-256. `expiresInDays` (1 to 3650) is optional. No `Idempotency-Key`: a replay would have to keep the secret; if an answer is lost, create another key and revoke the first.',
    tags,
    access,
    params: WorkspaceParams,
    body: CreateApiKeySchema,
    success: {
      status: 201,
      description: 'The key with its secret, shown once.',
      schema: ApiKeyWithSecretSchema,
    },
    errors: [],
    async handle({ use, params, body }) {
      const { token, secret } = await issueApiToken(use, {
        workspaceId: params.workspaceId,
        role: body.role,
        name: body.name,
        ...(body.expiresInDays !== undefined && { expiresInDays: body.expiresInDays }),
      });
      return ok({
        status: 201,
        data: { ...toApiKeyView(token), secret },
        headers: { 'Cache-Control': 'no-store' },
      });
    },
  }),
  defineRoute({
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/workspaces/{workspaceId}/api-keys/{apiKeyId}',
    summary: 'Revoke an API key',
    description:
      'Session only, ADMIN. Immediate on every instance: once this answers, no request with the key succeeds, and a write with it still in flight fails with 401 and leaves nothing behind. Revoking a revoked key answers it unchanged.',
    tags,
    access,
    params: v.object({ workspaceId: PathId, apiKeyId: PathId }),
    success: { status: 200, description: 'The revoked key.', schema: ApiKeySchema },
    errors: [404],
    async handle({ use, params }) {
      const revoked = await revokeApiToken(use, params.apiKeyId, params.workspaceId);
      return revoked.ok ? ok({ data: toApiKeyView(revoked.value) }) : revoked;
    },
  }),
];
