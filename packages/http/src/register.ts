import type { Principal } from '@travelops/auth';
import type { Actor } from '@travelops/domain/bookings';
import { runIdempotently } from '@travelops/domain/idempotency';
import {
  DEFAULT_LIMIT,
  type DomainError,
  ok,
  type Page,
  parseInput,
  type Result,
  type UnitOfWork,
} from '@travelops/domain/shared';
import type { Request, RequestHandler, Response, Router } from 'express';
import * as v from 'valibot';
import { type Admission, callerOf } from './admission.js';
import { DEFAULT_BODY_LIMIT_BYTES, jsonBody } from './body.js';
import { holdExpensiveSlot } from './concurrency.js';
import { createCursorCodec } from './cursor.js';
import type { AppStores, HandlerUnitOfWork, HttpDeps } from './deps.js';
import { sendError } from './errors.js';
import { fingerprintBody } from './fingerprint.js';
import { jsonSchemaOf } from './openapi/json-schema.js';
import { clientTag } from './rate-limit.js';
import { runRequestTransaction } from './request-transaction.js';
import type { RawReply, Reply, RouteContext, RouteDefinition } from './route.js';

const IdempotencyKeySchema = v.pipe(v.string(), v.uuid());

/** `/a/{b}/c` -> `/a/:b/c` */
export const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Query strings carry text; numbers and booleans of the query schema are read from it
 * before validation, so the schema (and the OpenAPI document) keep the real types.
 */
function createQueryCoercer(schema: v.GenericSchema | undefined) {
  const properties = (schema ? (jsonSchemaOf(schema).properties ?? {}) : {}) as Record<
    string,
    { type?: string }
  >;
  return (query: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...query };
    for (const [name, property] of Object.entries(properties)) {
      const raw = out[name];
      if (typeof raw !== 'string') continue;
      if ((property.type === 'integer' || property.type === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) {
        out[name] = Number(raw);
      } else if (property.type === 'boolean' && (raw === 'true' || raw === 'false')) {
        out[name] = raw === 'true';
      }
    }
    return out;
  };
}

/**
 * Where a guest's Idempotency-Key is unique: the workspace's slug and the client (a keyed hash
 * of its address), so a key seen by another address is another request and never answers
 * the first guest's booking and token.
 */
const publicScope = (req: Request, secret: string): string =>
  `public:${String(req.params.workspaceSlug)}:${clientTag(secret, 'idempotency', req.ip)}`;

const actorOf = (principal: Principal | null): Actor => {
  if (principal?.kind === 'api_token') return { type: 'api_token', id: principal.tokenId };
  if (principal?.kind === 'session') return { type: 'member', id: principal.memberId };
  return { type: 'guest', id: null };
};

interface StoredReply {
  status: number;
  /** JSON, or the text of a raw reply when `contentType` is set. */
  body: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

function toStoredReply(route: RouteDefinition, reply: Reply | RawReply): StoredReply {
  if ('contentType' in reply) {
    // The idempotency record keeps JSON bodies only: a replay could not restore the media type.
    if (route.idempotent) throw new Error(`${route.operationId}: an idempotent route answers JSON only.`);
    return {
      status: reply.status ?? route.success.status,
      body: reply.body,
      contentType: reply.contentType,
      ...(reply.headers && { headers: reply.headers }),
    };
  }
  const body: Record<string, unknown> = { data: reply.data };
  if (reply.pagination) body.pagination = reply.pagination;
  return {
    status: reply.status ?? route.success.status,
    body,
    ...(reply.headers && { headers: reply.headers }),
  };
}

export function registerRoute(
  router: Router,
  route: RouteDefinition,
  deps: HttpDeps,
  admission: Admission,
): void {
  const cursors = createCursorCodec(deps.cursorSecret);
  const coerceQuery = createQueryCoercer(route.query);
  const bodyLimit = deps.config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;

  /** Every answer waits for the request's count when it ran beside the work (admission.ts). */
  const answer = async (res: Response, send: () => void) => {
    const refused = await admission.settleCount(res);
    if (refused) return sendError(res, refused);
    send();
  };

  const handler = async (req: Request, res: Response) => {
    const details: NonNullable<DomainError['details']> = [];
    const params = route.params ? parseInput(route.params, req.params) : { ok: true as const, value: {} };
    // A path segment that cannot be an id names no record.
    if (!params.ok)
      return answer(res, () => sendError(res, { code: 'NOT_FOUND', message: 'No such record.' }));
    const query = route.query
      ? parseInput(route.query, coerceQuery(req.query as Record<string, unknown>))
      : null;
    if (query && !query.ok) details.push(...(query.error.details ?? []));
    if (route.idempotent) {
      const key = req.get('Idempotency-Key');
      if (key !== undefined && !v.is(IdempotencyKeySchema, key)) {
        details.push({ field: 'Idempotency-Key', issue: 'invalid_uuid' });
      }
    }
    const body = route.body ? parseInput(route.body, req.body) : null;
    if (body && !body.ok) details.push(...(body.error.details ?? []));
    if (details.length)
      return answer(res, () =>
        sendError(res, { code: 'VALIDATION_ERROR', message: 'The request is invalid.', details }),
      );

    const queryValue = (query?.ok ? query.value : {}) as Record<string, unknown>;
    const { principal, session } = callerOf(res);
    const scopeOf = (scope?: string) =>
      [route.operationId, principal?.workspaceId ?? '', scope ?? ''].join(':');
    const { uow: _pool, ...adapter } = deps;
    const contextFor = (uow: UnitOfWork<AppStores>): RouteContext<unknown, unknown, unknown> => ({
      params: params.value,
      query: queryValue,
      body: body?.ok ? body.value : undefined,
      principal,
      session,
      deps: adapter,
      use: {
        uow: uow as HandlerUnitOfWork,
        clock: deps.clock,
        payments: deps.payments,
        checkUrl: deps.checkWebhookUrl,
        ...(deps.calendarMemo && { calendarMemo: deps.calendarMemo }),
      },
      actor: actorOf(principal),
      req,
      res,
      pageRequest(scope) {
        const cursor = queryValue.cursor;
        return {
          limit: (queryValue.limit as number | undefined) ?? DEFAULT_LIMIT,
          after: typeof cursor === 'string' ? cursors.decode(scopeOf(scope), cursor) : null,
        };
      },
      pageReply<T>(page: Page<T>, scope?: string) {
        return {
          data: page.items,
          pagination: {
            hasMore: page.hasMore,
            // A list's `next` is null on its last page; a change feed keeps one there (where to resume).
            nextCursor: page.next ? cursors.encode(scopeOf(scope), page.next) : null,
          },
        };
      },
    });
    const run = async (uow: UnitOfWork<AppStores>): Promise<Result<StoredReply>> => {
      const result = await route.handle(contextFor(uow) as never);
      return result.ok ? ok(toStoredReply(route, result.value)) : result;
    };

    const key = route.idempotent ? req.get('Idempotency-Key') : undefined;
    const execute = (uow: UnitOfWork<AppStores>): Promise<Result<StoredReply & { replayed?: boolean }>> =>
      key
        ? runIdempotently(
            { uow, clock: deps.clock },
            {
              scope: `${principal?.workspaceId ?? publicScope(req, deps.csrfSecret)} ${req.method} ${req.path}`,
              key,
              fingerprint: fingerprintBody(req.body),
            },
            run,
          )
        : run(uow);
    const outcome = await runRequestTransaction(deps, { method: route.method, principal }, execute);
    if (!outcome.ok && outcome.error.code === 'UNAUTHENTICATED' && principal?.kind === 'api_token') {
      admission.forget(principal);
    }
    await answer(res, () => {
      if (!outcome.ok && outcome.error.code === 'UNAUTHENTICATED' && principal?.kind === 'api_token') {
        res.setHeader('WWW-Authenticate', 'Bearer realm="travelops"');
      }
      if (!outcome.ok) return sendError(res, outcome.error);
      const reply = outcome.value as StoredReply & { replayed?: boolean };
      if (reply.replayed) res.setHeader('Idempotent-Replayed', 'true');
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      if (reply.contentType !== undefined) res.status(reply.status).type(reply.contentType).send(reply.body);
      else res.status(reply.status).json(reply.body);
    });
  };

  const chain: RequestHandler[] = [admission.admit(route)];
  if (route.expensive) chain.push(holdExpensiveSlot(deps.concurrencyLimiter, sendError));
  if (route.body) chain.push(jsonBody(bodyLimit));
  chain.push(handler);
  router[route.method](toExpressPath(route.path), ...chain);
}
