import type { UseCaseDeps } from '@travelops/http';
import type * as v from 'valibot';
import type { OctoResult } from '../errors.js';
import type { OctoCaller } from '../ports.js';

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

interface OctoRouteContext<TParams, TQuery, TBody> {
  params: TParams;
  query: TQuery;
  body: TBody;
  /** The reseller connection (the API token) and the capabilities it asked for. */
  caller: OctoCaller;
  /** What the use cases take, bound to this request's transaction (writes) or the pool (reads). */
  use: UseCaseDeps;
  /** Where this OCTO API is served (`PUBLIC_BASE_URL` + `/octo`). */
  endpoint: string;
}

/**
 * One OCTO operation. Its request and answer are OCTO's own (`@octocloud/types` publishes the
 * document; docs/octo.md says why it is not repeated in `/openapi.json`): `path` is OCTO's path,
 * relative to `/octo`, and `operationId` OCTO's operation.
 */
export interface OctoRouteDefinition<
  TParams extends ObjectSchema = ObjectSchema,
  TQuery extends ObjectSchema = ObjectSchema,
  TBody extends v.GenericSchema = v.GenericSchema,
> {
  operationId: string;
  method: 'get' | 'post' | 'patch';
  /** OpenAPI-style path relative to `/octo`, e.g. `/bookings/{uuid}/confirm`. */
  path: string;
  summary: string;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  /** Holds one of the connection's concurrent slots while it runs (`holdExpensiveSlot`). */
  expensive?: true;
  handle(
    ctx: OctoRouteContext<v.InferOutput<TParams>, v.InferOutput<TQuery>, v.InferOutput<TBody>>,
  ): Promise<OctoResult<unknown>>;
}

/** Keeps each route's types tied together while collecting them in one list. */
export function defineOctoRoute<
  TParams extends ObjectSchema,
  TQuery extends ObjectSchema,
  TBody extends v.GenericSchema,
>(route: OctoRouteDefinition<TParams, TQuery, TBody>): OctoRouteDefinition {
  return route as unknown as OctoRouteDefinition;
}
