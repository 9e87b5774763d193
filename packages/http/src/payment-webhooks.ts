import {
  handlePaymentEvent,
  type PaymentEventOutcome,
  type PaymentEventReader,
  type PaymentEventReport,
} from '@travelops/domain/payments';
import express, { type Request, type Response, type Router } from 'express';
import type { HttpDeps } from './deps.js';
import { badRequest, type HttpError, sendError } from './errors.js';
import { clientKey, rateLimited, setRateLimitHeaders } from './rate-limit.js';

const STRIPE_WEBHOOK_PATH = '/stripe/webhooks';
const SIGNATURE_HEADER = 'Stripe-Signature';
/** Stripe's events are a few kilobytes; this bounds what an unsigned body costs to check. */
const BODY_LIMIT = '256kb';

/** Outcomes someone should look at: money or a checkout this service could not match. */
const NOTEWORTHY = new Set<PaymentEventOutcome>([
  'unknown_session',
  'amount_mismatch',
  'checkout_mismatch',
  'checkout_stale',
]);

function logReport(
  deps: HttpDeps,
  res: Response,
  event: { eventId: string; type: string },
  report: PaymentEventReport,
) {
  const fields = { requestId: res.locals.requestId, eventId: event.eventId, type: event.type, ...report };
  if (report.returned && !report.returned.ok) {
    deps.logger.error(fields, 'payment event: money to return could not be refunded; refund it by hand');
  } else if (NOTEWORTHY.has(report.outcome) || report.returned) {
    deps.logger.warn(fields, `payment event: ${report.outcome}`);
  } else {
    deps.logger.info(fields, `payment event: ${report.outcome}`);
  }
}

const parseRaw = express.raw({ type: () => true, limit: BODY_LIMIT });

/** Reads the raw body (the signature covers its bytes); a parse error is answered like the JSON routes'. */
function readRawBody(req: Request, res: Response): Promise<HttpError | null> {
  return new Promise((resolve) =>
    parseRaw(req, res, (err?: unknown) => {
      if (!err) return resolve(null);
      const tooLarge = (err as { type?: string }).type === 'entity.too.large';
      resolve(
        tooLarge
          ? badRequest(`The body is larger than ${BODY_LIMIT}.`, 'body', 'too_large', 413)
          : badRequest('The body could not be read.', 'body', 'incomplete'),
      );
    }),
  );
}

/**
 * `POST /stripe/webhooks`: Stripe's events, verified on the raw body before anything else
 * (400 on a bad signature, never a 5xx), each handled once. A valid signature is the
 * credential, so only refused requests spend the client IP's budget: Stripe's senders are
 * never locked out by its own volume. A 5xx means "try again later" to Stripe.
 */
export function paymentWebhooksRouter(deps: HttpDeps, reader: PaymentEventReader): Router {
  const router = express.Router();
  router.post(STRIPE_WEBHOOK_PATH, async (req: Request, res: Response) => {
    const key = clientKey(req.ip);
    const budget = await deps.rateLimiter.peek('ip', key);
    if (!budget.allowed) return sendError(res, rateLimited(res, budget));
    const unreadable = await readRawBody(req, res);
    if (unreadable) {
      setRateLimitHeaders(res, await deps.rateLimiter.consume('ip', key));
      return sendError(res, unreadable.error, unreadable.status);
    }
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const read = await reader.read(body, req.get(SIGNATURE_HEADER));
    if (!read.ok && read.error.code === 'VALIDATION_ERROR') {
      setRateLimitHeaders(res, await deps.rateLimiter.consume('ip', key));
      deps.logger.warn({ requestId: res.locals.requestId, err: read.error.message }, 'payment event refused');
      return sendError(res, read.error);
    }
    setRateLimitHeaders(res, budget);
    const handled = read.ok
      ? await handlePaymentEvent({ uow: deps.uow, clock: deps.clock, payments: deps.payments }, read.value)
      : read;
    if (!handled.ok) {
      deps.logger.error(
        { requestId: res.locals.requestId, code: handled.error.code, err: handled.error.message },
        'payment event not handled; the provider will send it again',
      );
      return sendError(res, { code: 'INTERNAL_ERROR', message: 'The event was not handled; send it again.' });
    }
    if (read.ok) logReport(deps, res, read.value, handled.value);
    res.json({ data: { received: true, outcome: handled.value.outcome } });
  });
  return router;
}
