import type { BookingRecord } from '@travelops/domain/bookings';
import { viewForGuest } from '@travelops/domain/guests';
import {
  completePayment,
  findPaymentSession,
  type PaymentPageOpener,
  type PaymentProvider,
} from '@travelops/domain/payments';
import { formatMoney, ok } from '@travelops/domain/shared';
import { escapeHtml } from '@travelops/html';
import express, { type Request, type Response, type Router } from 'express';
import { pagePolicy } from './csp.js';
import type { HttpDeps } from './deps.js';
import { sendError } from './errors.js';

/** The built-in payment provider: its checkout pages are served by this API at /sandbox/pay/{token}. */
export function createSandboxPaymentProvider(publicBaseUrl: string): PaymentProvider {
  const page = (token: string) => `${publicBaseUrl}/sandbox/pay/${token}`;
  return {
    checkoutUrl: (session) => page(session.token),
    startCheckout: async ({ session }) => ok({ redirectUrl: page(session.token), reference: null }),
    refund: async ({ bookingId }) => ok({ reference: `sandbox_refund_${bookingId}` }),
  };
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1rem;margin-right:.5rem}';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

/**
 * The sandbox checkout: GET shows the amount with "Pay" and "Fail" buttons; POST (form or
 * JSON `{ "outcome": "succeeded" | "failed" }`) completes the session like a real provider's
 * callback would.
 */
export function sandboxRouter(deps: HttpDeps): Router {
  const router = express.Router();
  // The payer of an operator's payment link sees the booking without its guest token.
  const payerView = async (booking: BookingRecord, openedBy: PaymentPageOpener) => {
    const view = await viewForGuest(deps, booking);
    return openedBy === 'guest' ? view : { ...view, publicToken: null };
  };
  // The form posts to this page's own URL, over http too (pagePolicy says why that matters).
  const csp = pagePolicy({
    https: deps.config.publicBaseUrl.startsWith('https:'),
    inlineStyles: [STYLE],
    formToSelf: true,
  });
  const noStore = (res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Content-Security-Policy', csp);
  };

  router.get('/sandbox/pay/:token', async (req: Request, res: Response) => {
    noStore(res);
    const session = await findPaymentSession(deps, String(req.params.token));
    if (!session) return sendError(res, { code: 'NOT_FOUND', message: 'No such payment page.' });
    const open = session.status === 'OPEN' && session.expiresAt.getTime() > deps.clock.now().getTime();
    res
      .type('html')
      .send(
        page(
          'Sandbox checkout',
          `<p>Booking <code>${escapeHtml(session.bookingId)}</code>: <strong>${formatMoney(session.amount, session.currency)}</strong> (${session.purpose.toLowerCase()}).</p>` +
            (open
              ? `<form method="post"><button name="outcome" value="succeeded">Pay</button><button name="outcome" value="failed">Fail the payment</button></form><p>No money moves: this is the sandbox provider.</p>`
              : `<p>This payment page is ${session.status === 'OPEN' ? 'expired' : session.status.toLowerCase()}.</p>`),
        ),
      );
  });

  router.post(
    '/sandbox/pay/:token',
    express.urlencoded({ extended: false, limit: '1kb' }),
    express.json({ limit: '1kb' }),
    async (req: Request, res: Response) => {
      noStore(res);
      const outcome = (req.body as { outcome?: unknown } | undefined)?.outcome;
      if (outcome !== 'succeeded' && outcome !== 'failed') {
        return sendError(res, {
          code: 'VALIDATION_ERROR',
          message: 'outcome must be "succeeded" or "failed".',
          details: [{ field: 'outcome', issue: 'invalid_enum' }],
        });
      }
      const result = await completePayment(deps, String(req.params.token), outcome);
      if (!result.ok) return sendError(res, result.error);
      const { session, booking } = result.value;
      if (req.is('application/x-www-form-urlencoded')) {
        return res.type('html').send(
          page(
            session.status === 'SUCCEEDED' ? 'Payment received' : 'Payment failed',
            `<p>Booking ${escapeHtml(booking.id)} is ${booking.status}.</p>` +
              // Back to the guest's booking page, as a real provider's return URL would take them;
              // never from an operator's payment link, whose payer may not be the guest.
              (session.openedBy === 'guest' && booking.publicToken
                ? `<p><a href="/b/${encodeURIComponent(booking.publicToken)}">View your booking</a></p>`
                : ''),
          ),
        );
      }
      res.json({
        data: {
          sessionId: session.id,
          status: session.status,
          amount: session.amount,
          currency: session.currency,
          booking: await payerView(booking, session.openedBy),
        },
      });
    },
  );
  return router;
}
