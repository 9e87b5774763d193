import type { Permission, Principal } from '@travelops/auth';
import type { SessionWithMemberships } from '@travelops/domain/access';
import type { Actor } from '@travelops/domain/bookings';
import { ok, type Page, type PageRequest, type Pagination, type Result } from '@travelops/domain/shared';
import type { Request, Response } from 'express';
import type * as v from 'valibot';
import type { HttpDeps, UseCaseDeps } from './deps.js';

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

export interface Reply {
  status?: number;
  data: unknown;
  pagination?: Pagination;
  headers?: Record<string, string>;
}

/** An answer in another media type than JSON (a CSV download): `body` is sent as it is. Reads only (not idempotent routes). */
export interface RawReply {
  status?: number;
  /** The whole `Content-Type`, e.g. `text/csv; charset=utf-8`. */
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** A media type a route also answers in, beside JSON (see `success.alternatives`). */
interface AlternativeMediaType {
  mediaType: string;
  description: string;
  example?: string;
}

export interface RouteContext<TParams, TQuery, TBody> {
  params: TParams;
  query: TQuery;
  body: TBody;
  /** The caller in the path's workspace; null on public and `session` routes. */
  principal: Principal | null;
  /** The session, when the caller used the session cookie, with its CSRF token. */
  session: { record: SessionWithMemberships; csrfToken: string } | null;
  /** Settings and services of the adapter (rate limits, cookies); never the database. */
  deps: Omit<HttpDeps, 'uow'>;
  /** What the use cases take, bound to this request's transaction (writes) or the pool (reads). */
  use: UseCaseDeps;
  /** Who acts: the token, the session's member, or a guest on public routes. */
  actor: Actor;
  req: Request;
  res: Response;
  /** The page the caller asked for (limit and decoded cursor), scoped to this list. */
  pageRequest(scope?: string): PageRequest;
  /** The list reply for a page, with a signed `nextCursor`. */
  pageReply<T>(page: Page<T>, scope?: string): Reply;
}

/**
 * Who may call: `public` (no credential); `session` (a signed-in session, no workspace:
 * `/auth/*`); or a permission in the path's workspace, held by an API token or a session's
 * member, or by the session alone (`sessionOnly`: API keys and members, which a token
 * must not manage).
 */
export type Access = 'public' | 'session' | { permission: Permission; sessionOnly?: boolean };

/** True when an API token may call the route. */
export const acceptsBearer = (access: Access): boolean =>
  typeof access === 'object' && access.sessionOnly !== true;

export interface RouteDefinition<
  TParams extends ObjectSchema = ObjectSchema,
  TQuery extends ObjectSchema = ObjectSchema,
  TBody extends v.GenericSchema = v.GenericSchema,
> {
  operationId: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI-style path, e.g. `/workspaces/{workspaceId}/tours/{tourId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  /** Accepts an `Idempotency-Key` header (creating POSTs). */
  idempotent?: boolean;
  /**
   * Work that grows with the data asked for (a year's calendar, a manifest, a schedule's
   * departures): it holds one of the caller's few concurrent slots while it runs (concurrency.ts).
   */
  expensive?: true;
  success: {
    status: number;
    description: string;
    schema: v.GenericSchema;
    list?: 'paginated' | 'plain';
    /** An example of the whole JSON answer (`{ data: ... }`), shown in the document. */
    example?: unknown;
    /**
     * The same answer in other media types, chosen by the request's `Accept` (the handler
     * asks `prefersMediaType` and answers a `RawReply`); documented beside `application/json`.
     */
    alternatives?: AlternativeMediaType[];
    /** Headers of the success answer besides those of every answer: name -> description. */
    headers?: Record<string, string>;
  };
  /** Statuses this operation can answer besides the success (documented in OpenAPI). */
  errors: number[];
  handle(
    ctx: RouteContext<v.InferOutput<TParams>, v.InferOutput<TQuery>, v.InferOutput<TBody>>,
  ): Promise<Result<Reply | RawReply>>;
}

/** Keeps each route's types tied together while collecting them in one list. */
export function defineRoute<
  TParams extends ObjectSchema,
  TQuery extends ObjectSchema,
  TBody extends v.GenericSchema,
>(route: RouteDefinition<TParams, TQuery, TBody>): RouteDefinition {
  return route as unknown as RouteDefinition;
}

/**
 * Whether the request's `Accept` prefers `mediaType` to JSON. JSON wins a tie, a missing
 * header, any type (`*` + `/*`), and an `Accept` naming neither (the error envelope is JSON too).
 */
export function prefersMediaType(req: Request, mediaType: string): boolean {
  return req.accepts(['application/json', mediaType]) === mediaType;
}

/** A use case's result as a reply: its value becomes `data`. */
export function toReply<T>(result: Result<T>, status?: number): Result<Reply> {
  if (!result.ok) return result;
  return ok(status === undefined ? { data: result.value } : { status, data: result.value });
}
