import { notFound } from '../shared/errors.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type { Clock, PageRequest, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type {
  WebhookDeliveryRecord,
  WebhookDeliveryStore,
  WebhookEndpointRecord,
  WebhookEndpointStore,
} from './ports.js';
import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDelivery,
  WebhookEndpoint,
} from './schemas.js';

/** Checks that an endpoint URL may receive deliveries (scheme; in production, no private addresses). */
export type EndpointUrlCheck = (url: string) => Promise<Result<true>>;

/** Every store the webhook use cases touch. */
export interface WebhookStores {
  webhookEndpoints: WebhookEndpointStore;
  webhookDeliveries: WebhookDeliveryStore;
}

/** What a webhook use case takes: a unit of work over the stores `K` it names, the clock, the URL check. */
export interface WebhookDeps<K extends keyof WebhookStores = keyof WebhookStores> {
  uow: UnitOfWork<Pick<WebhookStores, K>>;
  clock: Clock;
  checkUrl: EndpointUrlCheck;
}

const HOUR = 60 * 60 * 1000;
const DEFAULT_SECRET_OVERLAP_HOURS = 24;

export const newWebhookSecret = () => `whsec_${randomBase62(32)}`;

export function toWebhookEndpointView(record: WebhookEndpointRecord): WebhookEndpoint {
  const { workspaceId: _w, secret: _s, previousSecret: _p, ...endpoint } = record;
  return endpoint;
}

export function toWebhookDeliveryView(record: WebhookDeliveryRecord): WebhookDelivery {
  const { workspaceId: _w, aggregateId: _a, eventSeq: _e, ...delivery } = record;
  return delivery;
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: WebhookEndpointRecord, now: Date): string[] {
  const overlap =
    endpoint.previousSecret &&
    endpoint.previousSecretExpiresAt &&
    Date.parse(endpoint.previousSecretExpiresAt) > now.getTime();
  return overlap ? [endpoint.secret, endpoint.previousSecret as string] : [endpoint.secret];
}

export async function createWebhookEndpoint(
  deps: WebhookDeps<'webhookEndpoints'>,
  workspaceId: string,
  input: CreateWebhookEndpointInput,
): Promise<Result<WebhookEndpointRecord>> {
  const allowed = await deps.checkUrl(input.url);
  if (!allowed.ok) return allowed;
  return ok(
    await deps.uow.stores.webhookEndpoints.insert({
      id: newId('webhookEndpoint'),
      workspaceId,
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      disabledReason: null,
      secret: newWebhookSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
    }),
  );
}

export async function getWebhookEndpoint(
  deps: Pick<WebhookDeps<'webhookEndpoints'>, 'uow'>,
  workspaceId: string,
  id: string,
) {
  const endpoint = await deps.uow.stores.webhookEndpoints.findById(workspaceId, id);
  return endpoint ? ok(endpoint) : fail(notFound('webhook endpoint'));
}

export function listWebhookEndpoints(
  deps: Pick<WebhookDeps<'webhookEndpoints'>, 'uow'>,
  workspaceId: string,
  page: PageRequest,
) {
  return deps.uow.stores.webhookEndpoints.list(workspaceId, page);
}

export async function updateWebhookEndpoint(
  deps: WebhookDeps<'webhookEndpoints'>,
  workspaceId: string,
  id: string,
  input: UpdateWebhookEndpointInput,
): Promise<Result<WebhookEndpointRecord>> {
  if (input.url !== undefined) {
    const allowed = await deps.checkUrl(input.url);
    if (!allowed.ok) return allowed;
  }
  const patch = {
    ...(input.url !== undefined && { url: input.url }),
    ...(input.events !== undefined && { events: [...new Set(input.events)] }),
    ...(input.description !== undefined && { description: input.description }),
    // Enabling again clears the reason the service disabled it.
    ...(input.enabled !== undefined && { enabled: input.enabled, disabledReason: null }),
  };
  const updated = await deps.uow.stores.webhookEndpoints.update(workspaceId, id, patch);
  return updated ? ok(updated) : fail(notFound('webhook endpoint'));
}

export async function deleteWebhookEndpoint(
  deps: Pick<WebhookDeps<'webhookEndpoints'>, 'uow'>,
  workspaceId: string,
  id: string,
) {
  const deleted = await deps.uow.stores.webhookEndpoints.delete(workspaceId, id);
  return deleted ? ok({ id, deleted: true as const }) : fail(notFound('webhook endpoint'));
}

/** A new secret; the old one keeps signing beside it for `overlapHours` so receivers can switch over. */
export async function rotateWebhookSecret(
  deps: Pick<WebhookDeps<'webhookEndpoints'>, 'uow' | 'clock'>,
  workspaceId: string,
  id: string,
  overlapHours = DEFAULT_SECRET_OVERLAP_HOURS,
): Promise<Result<WebhookEndpointRecord>> {
  const endpoint = await deps.uow.stores.webhookEndpoints.findById(workspaceId, id);
  if (!endpoint) return fail(notFound('webhook endpoint'));
  const until = new Date(deps.clock.now().getTime() + overlapHours * HOUR);
  const updated = await deps.uow.stores.webhookEndpoints.update(workspaceId, id, {
    secret: newWebhookSecret(),
    previousSecret: overlapHours > 0 ? endpoint.secret : null,
    previousSecretExpiresAt: overlapHours > 0 ? until.toISOString() : null,
  });
  return updated ? ok(updated) : fail(notFound('webhook endpoint'));
}
