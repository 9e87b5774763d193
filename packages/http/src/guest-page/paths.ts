/** OpenAPI entries of what the guest's browser loads outside the route table: the widget and the booking page. */
const tags = ['Public'];
const RATE_LIMITED = { '429': { $ref: '#/components/responses/RateLimited' } };
const TOKEN = [
  { name: 'publicToken', in: 'path', required: true, schema: { type: 'string', maxLength: 100 } },
];
/** These answers are counted per client IP like `/public/`, and say so. */
const RATE_HEADERS = Object.fromEntries(
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => [
    name,
    { $ref: `#/components/headers/${name}` },
  ]),
);
const html = (description: string) => ({
  description,
  headers: RATE_HEADERS,
  content: { 'text/html': { schema: { type: 'string' } } },
});
const NOT_FOUND_PAGE = html(
  'No booking has this token: a page that says so, the same for every unknown token.',
);
const SEE_OTHER = {
  description: 'Done: back to the booking page (`Location: /b/{publicToken}?done=...`).',
  headers: { Location: { schema: { type: 'string' } }, ...RATE_HEADERS },
};

/** A form post of the booking page: fields as `application/x-www-form-urlencoded`. */
const formPost = (
  operationId: string,
  summary: string,
  description: string,
  properties: Record<string, object>,
  required: string[],
  success: Record<string, object>,
) => ({
  post: {
    operationId,
    summary,
    description,
    tags,
    security: [],
    parameters: TOKEN,
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties } },
      },
    },
    responses: {
      ...success,
      '400': html('A field is missing or invalid: the page again, saying which, in words.'),
      '404': NOT_FOUND_PAGE,
      '422': html(
        'The booking cannot do that now (paid, cancelled, past the cutoff): the page again, saying so.',
      ),
      ...RATE_LIMITED,
    },
  },
});

export const guestPagePaths: Record<string, object> = {
  '/widget.js': {
    get: {
      operationId: 'getBookingWidgetScript',
      summary: 'The booking widget',
      description:
        'Embedded with one script element whose `src` is this address, with `data-workspace` (the slug) and optionally `data-tour`, or with the `travelops-booking` element (attributes `workspace`, `tour`). Any origin may load it (CORS, `Cross-Origin-Resource-Policy: cross-origin`); cached 5 minutes, then revalidated by `ETag` (304). 404 on a server not configured to serve it (`WIDGET_SCRIPT` unset).',
      tags,
      security: [],
      responses: {
        '200': {
          description: 'The script.',
          headers: { ETag: { schema: { type: 'string' } }, ...RATE_HEADERS },
          content: { 'text/javascript': { schema: { type: 'string' } } },
        },
        '304': { description: 'Unchanged since the `If-None-Match` ETag.', headers: RATE_HEADERS },
        '404': { $ref: '#/components/responses/NotFound' },
        ...RATE_LIMITED,
      },
    },
  },
  '/b/{publicToken}': {
    get: {
      parameters: TOKEN,
      operationId: 'getGuestBookingPage',
      summary: "The guest's booking page",
      description:
        'Server-rendered HTML, no login (the token is the access): the booking, its participants and meeting point, waivers, payment, cancellation under its policy with the refund, and an `.ics`. `Cache-Control: no-store`, `Referrer-Policy: no-referrer`, a Content-Security-Policy without any script; forms post to the operations below.',
      tags,
      security: [],
      responses: { '200': html('The booking page.'), '404': NOT_FOUND_PAGE, ...RATE_LIMITED },
    },
  },
  '/b/{publicToken}/booking.ics': {
    get: {
      parameters: TOKEN,
      operationId: 'getGuestBookingCalendar',
      summary: 'The booking as a calendar event',
      description:
        'RFC 5545 `VCALENDAR` with one `VEVENT` (UTC times; `STATUS` TENTATIVE while unpaid, CANCELLED once cancelled), as an attachment. It holds no link with the token.',
      tags,
      security: [],
      responses: {
        '200': {
          description: 'The event.',
          headers: RATE_HEADERS,
          content: { 'text/calendar': { schema: { type: 'string' } } },
        },
        '404': NOT_FOUND_PAGE,
        ...RATE_LIMITED,
      },
    },
  },
  '/b/{publicToken}/waiver': {
    ...formPost(
      'submitGuestWaiverForm',
      "Sign a participant's waiver (form)",
      'The form of `signPublicBookingWaiver`: `accepted=yes` and a typed name.',
      {
        participantId: { type: 'string' },
        signedName: { type: 'string', maxLength: 200 },
        accepted: { type: 'string', enum: ['yes'] },
      },
      ['participantId', 'signedName', 'accepted'],
      { '303': SEE_OTHER },
    ),
  },
  '/b/{publicToken}/pay': {
    ...formPost(
      'submitGuestPaymentForm',
      'Pay, or pay the balance (form)',
      'A PENDING booking retries its payment (`retryPublicBookingPayment`), a CONFIRMED one pays its balance (`payPublicBookingBalance`). Answers a page that takes the guest to `checkoutUrl` (a meta refresh and a link: a redirect after a form may not leave this origin under the page policy).',
      {},
      [],
      { '200': html('The way to the checkout.') },
    ),
  },
  '/b/{publicToken}/cancel': {
    ...formPost(
      'submitGuestCancelForm',
      'Cancel the booking (form)',
      'The form of `cancelPublicBooking`: `confirm=yes` and an optional reason; the refund is the policy’s.',
      { confirm: { type: 'string', enum: ['yes'] }, reason: { type: 'string', maxLength: 500 } },
      ['confirm'],
      { '303': SEE_OTHER },
    ),
  },
};
