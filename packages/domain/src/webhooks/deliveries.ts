import { notFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok } from '../shared/result.js';

import type { WebhookDeps } from './endpoints.js';

export async function listWebhookDeliveries(
  deps: Pick<WebhookDeps<'webhookDeliveries' | 'webhookEndpoints'>, 'uow'>,
  workspaceId: string,
  endpointId: string,
  page: PageRequest,
) {
  const endpoint = await deps.uow.stores.webhookEndpoints.findById(workspaceId, endpointId);
  if (!endpoint) return fail(notFound('webhook endpoint'));
  return ok(await deps.uow.stores.webhookDeliveries.list(workspaceId, endpointId, page));
}

export async function resendWebhookDelivery(
  deps: Pick<WebhookDeps<'webhookDeliveries'>, 'uow' | 'clock'>,
  workspaceId: string,
  endpointId: string,
  id: string,
) {
  const delivery = await deps.uow.stores.webhookDeliveries.resend(
    workspaceId,
    endpointId,
    id,
    deps.clock.now(),
  );
  return delivery ? ok(delivery) : fail(notFound('webhook delivery'));
}
