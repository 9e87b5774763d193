import { GuestCancellationSchema, WaiverSchema } from '@travelops/domain/bookings';
import {
  cancelPublicBooking,
  getPublicBooking,
  guestBookingEvent,
  type PublicBooking,
  payPublicBalance,
  retryPublicPayment,
  signWaiver,
  toIcs,
  viewForGuest,
} from '@travelops/domain/guests';
import { type DomainError, parseInput } from '@travelops/domain/shared';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { HttpDeps } from '../deps.js';
import { sendError, statusForCode } from '../errors.js';
import { localeOf } from './format.js';
import { bookingPage, checkoutRedirectPage, guestPagePolicy, notFoundPage } from './view.js';

/** Longer path segments name no record, as on every route. */
const MAX_TOKEN_LENGTH = 100;

/** Form fields are short: a name, a reason, an id. A form too large is 413, never a 500. */
const parseForm = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });
const formBody: RequestHandler = (req, res, next) =>
  parseForm(req, res, (error?: unknown) => {
    if (!error) return next();
    sendError(
      res,
      {
        code: 'VALIDATION_ERROR',
        message: 'The form is too large.',
        details: [{ field: 'body', issue: 'too_large' }],
      },
      413,
    );
  });

/** A guest's link is a credential: never cached or indexed, never leaked through a Referer. */
function guestHeaders(res: Response, policy: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Content-Security-Policy', policy);
}

const field = (req: Request, name: string): string | undefined => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The guest's pages, server-rendered (`/b/{publicToken}`): the booking, waivers, payment,
 * cancellation and an `.ics`. Forms post here and are answered with a redirect back (or the
 * page again, with the error in words); every action is one call to the guests' use cases.
 */
export function guestPageRouter(deps: HttpDeps): Router {
  const router = express.Router();
  const use = { uow: deps.uow, clock: deps.clock, payments: deps.payments };

  const tokenOf = (req: Request): string | null => {
    const token = String(req.params.publicToken);
    return token.length <= MAX_TOKEN_LENGTH && !token.includes('\u0000') ? token : null;
  };

  async function load(token: string | null): Promise<PublicBooking | null> {
    if (!token) return null;
    const found = await getPublicBooking(use, token);
    return found.ok ? viewForGuest(use, found.value) : null;
  }

  const notFound = (res: Response) => res.status(404).type('html').send(notFoundPage());

  function sendPage(req: Request, res: Response, booking: PublicBooking, status = 200, error?: DomainError) {
    const done = typeof req.query.done === 'string' ? req.query.done : undefined;
    res
      .status(status)
      .type('html')
      .send(
        bookingPage(booking, {
          locale: localeOf(req.get('Accept-Language')),
          now: deps.clock.now(),
          notice: error ? undefined : done,
          error: error && { details: error.details?.length ? error.details : [{ field: '', issue: '' }] },
        }),
      );
  }

  /** A form's outcome: back to the page (303) on success, the page with the error otherwise. */
  async function answer(
    req: Request,
    res: Response,
    token: string,
    failure: DomainError | null,
    done: string,
  ) {
    if (!failure) return res.redirect(303, `/b/${encodeURIComponent(token)}?done=${done}`);
    if (failure.code === 'NOT_FOUND') return notFound(res);
    const booking = await load(token);
    if (!booking) return notFound(res);
    sendPage(req, res, booking, statusForCode(failure.code), failure);
  }

  const policy = guestPagePolicy(deps.config.publicBaseUrl.startsWith('https:'));
  router.use('/b', (_req, res, next) => {
    guestHeaders(res, policy);
    next();
  });

  router.get('/b/:publicToken', async (req, res) => {
    const booking = await load(tokenOf(req));
    if (!booking) return notFound(res);
    sendPage(req, res, booking);
  });

  router.get('/b/:publicToken/booking.ics', async (req, res) => {
    const booking = await load(tokenOf(req));
    if (!booking) return notFound(res);
    const calendar = toIcs(
      guestBookingEvent(booking, {
        uidDomain: new URL(deps.config.publicBaseUrl).hostname,
        now: deps.clock.now(),
      }),
    );
    res.setHeader('Content-Disposition', `attachment; filename="booking-${booking.id}.ics"`);
    res.type('text/calendar; charset=utf-8').send(calendar);
  });

  router.post('/b/:publicToken/waiver', formBody, async (req, res) => {
    const token = tokenOf(req);
    if (!token) return notFound(res);
    const input = parseInput(WaiverSchema, {
      participantId: field(req, 'participantId') ?? '',
      signedName: field(req, 'signedName') ?? '',
      accepted: field(req, 'accepted') === 'yes',
    });
    const signed = input.ok ? await signWaiver(use, token, input.value) : input;
    await answer(req, res, token, signed.ok ? null : signed.error, 'waiver');
  });

  router.post('/b/:publicToken/pay', formBody, async (req, res) => {
    const token = tokenOf(req);
    const booking = await load(token);
    if (!token || !booking) return notFound(res);
    // A held booking pays (again) what it owes first; a confirmed one pays its balance.
    const opened =
      booking.status === 'CONFIRMED'
        ? await payPublicBalance(use, token)
        : await retryPublicPayment(use, token);
    if (!opened.ok) return answer(req, res, token, opened.error, 'pay');
    const url = opened.value.links.checkoutUrl;
    if (!url) return answer(req, res, token, { code: 'INTERNAL_ERROR', message: 'No checkout.' }, 'pay');
    res.type('html').send(checkoutRedirectPage(url));
  });

  router.post('/b/:publicToken/cancel', formBody, async (req, res) => {
    const token = tokenOf(req);
    if (!token) return notFound(res);
    if (field(req, 'confirm') !== 'yes') {
      const unconfirmed: DomainError = {
        code: 'VALIDATION_ERROR',
        message: 'Confirm the cancellation.',
        details: [{ field: 'confirm', issue: 'confirmCancel' }],
      };
      return answer(req, res, token, unconfirmed, 'cancelled');
    }
    const reason = field(req, 'reason')?.trim();
    const input = parseInput(GuestCancellationSchema, reason ? { reason } : {});
    const cancelled = input.ok ? await cancelPublicBooking(use, token, input.value) : input;
    await answer(req, res, token, cancelled.ok ? null : cancelled.error, 'cancelled');
  });

  return router;
}
