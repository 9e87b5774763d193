import { findCheckoutReturn, startCheckout } from '@travelops/domain/payments';
import { escapeHtml } from '@travelops/html';
import express, { type Request, type Response, type Router } from 'express';
import type { HttpDeps } from './deps.js';
import { sendError } from './errors.js';

/** Longer path segments name no record (as on every route). */
const MAX_TOKEN_LENGTH = 100;

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${head}<title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

/** A payment page's link is a credential: never cached, never leaked through a Referer. */
function noStore(res: Response) {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

const tokenOf = (req: Request) => {
  const token = String(req.params.token);
  return token.length <= MAX_TOKEN_LENGTH ? token : null;
};

/**
 * The payer's way in and back out, whatever the provider: `GET /pay/{token}` (the
 * `checkoutUrl` a real provider hands out) starts the provider's checkout and answers 303 to
 * it; `GET /pay/{token}/done` is where the provider sends the payer back.
 */
export function paymentPagesRouter(deps: HttpDeps): Router {
  const router = express.Router();

  router.get('/pay/:token', async (req: Request, res: Response) => {
    noStore(res);
    const token = tokenOf(req);
    if (!token) return sendError(res, { code: 'NOT_FOUND', message: 'No such payment page.' });
    const back = `${deps.config.publicBaseUrl}/pay/${encodeURIComponent(token)}/done`;
    const started = await startCheckout(
      { uow: deps.uow, clock: deps.clock, payments: deps.payments },
      token,
      { returnUrl: back, cancelUrl: `${back}?cancelled=1` },
    );
    if (!started.ok) {
      if (started.error.code === 'INTERNAL_ERROR' || started.error.code === 'UNPROCESSABLE') {
        deps.logger.warn(
          { requestId: res.locals.requestId, code: started.error.code, err: started.error.message },
          'checkout not started',
        );
      }
      return sendError(res, started.error);
    }
    // A widget's script may ask for the address to navigate there itself; a browser is redirected.
    if (req.accepts(['html', 'json']) === 'json')
      return res.json({ data: { url: started.value.redirectUrl } });
    res.redirect(303, started.value.redirectUrl);
  });

  router.get('/pay/:token/done', async (req: Request, res: Response) => {
    noStore(res);
    const token = tokenOf(req);
    const found = token ? await findCheckoutReturn(deps, token) : null;
    if (!token || !found) return sendError(res, { code: 'NOT_FOUND', message: 'No such payment page.' });
    const { session, booking } = found;
    // A guest's own checkout leads back to their booking page (/b/{publicToken}), whatever became
    // of the payment; an operator's payment link, payable by anyone it is sent to, shows the
    // payment's state only: its payer may not be the guest.
    const status =
      `<p>Booking <code>${escapeHtml(booking.id)}</code> is ${booking.status}, payment ${booking.paymentStatus}.</p>` +
      (session.openedBy === 'guest' && booking.publicToken
        ? `<p><a href="/b/${encodeURIComponent(booking.publicToken)}">View your booking</a></p>`
        : '');
    if (session.status === 'SUCCEEDED') {
      return res.type('html').send(page('Payment received', `<p>Thank you.</p>${status}`));
    }
    if (session.status === 'OPEN' && req.query.cancelled !== undefined) {
      const retry = `/pay/${encodeURIComponent(token)}`;
      return res
        .type('html')
        .send(
          page(
            'Payment not completed',
            `<p>Nothing was charged.</p>${status}<p><a href="${escapeHtml(retry)}">Back to the payment page</a></p>`,
          ),
        );
    }
    if (session.status === 'OPEN') {
      // The provider tells us by webhook, usually within seconds of sending the payer here.
      return res
        .type('html')
        .send(
          page(
            'Payment being confirmed',
            `<p>We are waiting for the payment provider to confirm your payment. This page refreshes itself.</p>${status}`,
            '<meta http-equiv="refresh" content="5">',
          ),
        );
    }
    res
      .type('html')
      .send(
        page('Payment page closed', `<p>This payment page is ${session.status.toLowerCase()}.</p>${status}`),
      );
  });

  return router;
}
