import { ok, PageQuerySchema, type Result } from '@travelops/domain/shared';
import {
  CreateWebhookEndpointSchema,
  createWebhookEndpoint,
  DeletedSchema,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  RotateWebhookSecretSchema,
  resendWebhookDelivery,
  rotateWebhookSecret,
  toWebhookDeliveryView,
  toWebhookEndpointView,
  UpdateWebhookEndpointSchema,
  updateWebhookEndpoint,
  WebhookDeliverySchema,
  type WebhookEndpointRecord,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, type Reply, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Webhooks'];
const access = { permission: 'webhooks:manage' } as const;
const EndpointParams = v.object({ workspaceId: PathId, endpointId: PathId });

const endpointReply = (
  result: Result<WebhookEndpointRecord>,
  options: { withSecret?: boolean } = {},
): Result<Reply> => {
  if (!result.ok) return result;
  const view = toWebhookEndpointView(result.value);
  // The signing secret is shown once: in the answer that created or rotated it, never again.
  return ok({
    data: options.withSecret ? { ...view, secret: result.value.secret } : view,
    headers: { 'Cache-Control': 'no-store' },
  });
};

export const webhookRoutes = [
  defineRoute({
    operationId: 'createWebhookEndpoint',
    method: 'post',
    path: '/workspaces/{workspaceId}/webhook-endpoints',
    summary: 'Register a webhook endpoint',
    description:
      'ADMIN. `url` is http or https; outside development, loopback, private and link-local addresses are refused (422 `private_address`). The signing secret (`whsec_...`) is in this answer only. Deliveries carry `service-signature: t=<unix seconds>,v1=<hex>` (HMAC-SHA256 over `<t>.<raw body>`) and `service-event-id`.',
    tags,
    access,
    params: WorkspaceParams,
    body: CreateWebhookEndpointSchema,
    idempotent: true,
    success: {
      status: 201,
      description: 'The endpoint with its secret, shown once.',
      schema: WebhookEndpointWithSecretSchema,
    },
    errors: [422],
    async handle({ use, params, body }) {
      return endpointReply(await createWebhookEndpoint(use, params.workspaceId, body), {
        withSecret: true,
      });
    },
  }),
  defineRoute({
    operationId: 'listWebhookEndpoints',
    method: 'get',
    path: '/workspaces/{workspaceId}/webhook-endpoints',
    summary: 'List webhook endpoints, newest first',
    tags,
    access,
    params: WorkspaceParams,
    query: PageQuerySchema,
    success: {
      status: 200,
      description: 'A page of endpoints.',
      schema: WebhookEndpointSchema,
      list: 'paginated',
    },
    errors: [],
    async handle({ use, params, pageRequest, pageReply }) {
      const page = await listWebhookEndpoints(use, params.workspaceId, pageRequest());
      return ok(pageReply({ ...page, items: page.items.map(toWebhookEndpointView) }));
    },
  }),
  defineRoute({
    operationId: 'getWebhookEndpoint',
    method: 'get',
    path: '/workspaces/{workspaceId}/webhook-endpoints/{endpointId}',
    summary: 'Get a webhook endpoint',
    tags,
    access,
    params: EndpointParams,
    success: { status: 200, description: 'The endpoint.', schema: WebhookEndpointSchema },
    errors: [404],
    async handle({ use, params }) {
      return endpointReply(await getWebhookEndpoint(use, params.workspaceId, params.endpointId));
    },
  }),
  defineRoute({
    operationId: 'updateWebhookEndpoint',
    method: 'patch',
    path: '/workspaces/{workspaceId}/webhook-endpoints/{endpointId}',
    summary: 'Change, enable or disable a webhook endpoint',
    description:
      'Disabled endpoints keep their pending deliveries; enabling again resumes them (and clears `disabledReason`).',
    tags,
    access,
    params: EndpointParams,
    body: UpdateWebhookEndpointSchema,
    success: { status: 200, description: 'The endpoint.', schema: WebhookEndpointSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return endpointReply(await updateWebhookEndpoint(use, params.workspaceId, params.endpointId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteWebhookEndpoint',
    method: 'delete',
    path: '/workspaces/{workspaceId}/webhook-endpoints/{endpointId}',
    summary: 'Delete a webhook endpoint and its pending deliveries',
    tags,
    access,
    params: EndpointParams,
    success: { status: 200, description: 'Deleted.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteWebhookEndpoint(use, params.workspaceId, params.endpointId));
    },
  }),
  defineRoute({
    operationId: 'rotateWebhookEndpointSecret',
    method: 'post',
    path: '/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/rotate-secret',
    summary: 'Rotate the signing secret',
    description:
      'A new secret, shown once. For `overlapHours` (default 24, 0 to 168) deliveries carry two `v1` signatures, the new and the old secret, so receivers can switch without losing events.',
    tags,
    access,
    params: EndpointParams,
    body: v.optional(RotateWebhookSecretSchema, {}),
    success: {
      status: 200,
      description: 'The endpoint with its new secret.',
      schema: WebhookEndpointWithSecretSchema,
    },
    errors: [404],
    async handle({ use, params, body }) {
      const rotated = await rotateWebhookSecret(
        use,
        params.workspaceId,
        params.endpointId,
        body.overlapHours,
      );
      return endpointReply(rotated, { withSecret: true });
    },
  }),
  defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/deliveries',
    summary: "List an endpoint's deliveries, newest first",
    description:
      'Each event to this endpoint with its status (PENDING, SUCCEEDED, FAILED), attempts and last result.',
    tags,
    access,
    params: EndpointParams,
    query: PageQuerySchema,
    success: {
      status: 200,
      description: 'A page of deliveries.',
      schema: WebhookDeliverySchema,
      list: 'paginated',
    },
    errors: [404],
    async handle({ use, params, pageRequest, pageReply }) {
      const page = await listWebhookDeliveries(
        use,
        params.workspaceId,
        params.endpointId,
        pageRequest(params.endpointId),
      );
      return page.ok
        ? ok(
            pageReply(
              { ...page.value, items: page.value.items.map(toWebhookDeliveryView) },
              params.endpointId,
            ),
          )
        : page;
    },
  }),
  defineRoute({
    operationId: 'resendWebhookDelivery',
    method: 'post',
    path: '/workspaces/{workspaceId}/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/resend',
    summary: 'Send a delivery again',
    description: 'Queues the same event (same id, fresh signature) for delivery now, whatever its status.',
    tags,
    access,
    params: v.object({ workspaceId: PathId, endpointId: PathId, deliveryId: PathId }),
    success: { status: 200, description: 'The queued delivery.', schema: WebhookDeliverySchema },
    errors: [404],
    async handle({ use, params }) {
      const resent = await resendWebhookDelivery(
        use,
        params.workspaceId,
        params.endpointId,
        params.deliveryId,
      );
      return resent.ok ? ok({ data: toWebhookDeliveryView(resent.value) }) : resent;
    },
  }),
];
