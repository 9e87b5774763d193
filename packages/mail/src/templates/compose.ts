import type {
  ComposedEmail,
  GuestEmailComposer,
  GuestEmailContext,
  GuestEmailRequest,
} from '@travelops/domain/notifications';
import { localMoneyFormat } from '@travelops/domain/shared';
import { type Block, oneLine, render } from './layout.js';
import { en } from './strings.en.js';

/** Money and instants as the guest reads them: the booking's currency, the tour's time zone. */
function formatters(currency: string, timeZone: string) {
  // JPY has no minor unit, EUR two, BHD three: the domain's one table says, not the runtime's CLDR.
  const money = localMoneyFormat(currency, 'en-GB');
  const dateTime = new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
  const shortDate = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  });
  return {
    money,
    when: (iso: string) => dateTime.format(new Date(iso)),
    short: (iso: string) => shortDate.format(new Date(iso)),
  };
}

type Of<T extends GuestEmailRequest['template']> = Extract<GuestEmailRequest, { template: T }>;

/** The message of one context: subject, plain text and HTML from the same blocks. */
export const composeGuestEmail: GuestEmailComposer = (context: GuestEmailContext): ComposedEmail => {
  const { booking, links } = context;
  const tourName = booking.tour?.name ?? booking.id;
  const f = formatters(booking.currency, booking.tour?.timeZone ?? 'UTC');
  const outstanding = Math.max(0, booking.totalAmount - booking.amountPaid);

  const departure: [string, string][] = [
    [en.labels.reference, booking.id],
    [en.labels.tour, tourName],
    [en.labels.when, f.when(booking.startsAt)],
    [en.labels.meetingPoint, booking.tour?.meetingPoint ?? en.meetingPointLater],
    ...(booking.tour
      ? [[en.labels.duration, en.minutes(booking.tour.durationMinutes)] as [string, string]]
      : []),
    [en.labels.participants, booking.participants.map((p) => p.name).join('\n')],
  ];
  const amounts: [string, string][] = [
    [en.labels.total, f.money(booking.totalAmount)],
    [en.labels.paid, f.money(booking.amountPaid)],
    ...(booking.amountRefunded > 0
      ? [[en.labels.refunded, f.money(booking.amountRefunded)] as [string, string]]
      : []),
    ...(outstanding > 0 && booking.status !== 'CANCELLED'
      ? [[en.labels.outstanding, f.money(outstanding)] as [string, string]]
      : []),
  ];
  const page: Block[] = links.bookingPage
    ? [{ type: 'link', intro: en.bookingPageHint, label: en.viewBooking, href: links.bookingPage }]
    : [];
  const closing: Block[] = [
    { type: 'paragraph', text: en.signOff(context.workspaceName) },
    { type: 'small', text: en.footer(context.workspaceName, context.replyTo !== null) },
  ];

  const message = (subject: string, blocks: Block[]): ComposedEmail => {
    const title = oneLine(subject);
    const body: Block[] = [
      { type: 'paragraph', text: en.greeting(context.customerName) },
      ...blocks,
      ...closing,
    ];
    return { subject: title, ...render(title, body) };
  };

  switch (context.kind) {
    case 'booking_confirmed':
      return message(en.booking_confirmed.subject(tourName, f.short(booking.startsAt)), [
        { type: 'paragraph', text: en.booking_confirmed.intro(context.workspaceName) },
        { type: 'details', rows: [...departure, ...amounts] },
        ...page,
        { type: 'paragraph', text: en.calendarHint(links.calendarFile) },
        ...(booking.cancellable
          ? [
              {
                type: 'small',
                text: en.booking_confirmed.cancelUntil(f.when(booking.cancellationCutoffAt)),
              } as Block,
            ]
          : []),
      ]);

    case 'payment_received': {
      const request = context.request as Of<'payment_received'> | null;
      const received = f.money(request?.amount ?? booking.amountPaid);
      return message(en.payment_received.subject(received, tourName), [
        { type: 'paragraph', text: en.payment_received.intro(received) },
        {
          type: 'details',
          rows: [
            [en.labels.reference, booking.id],
            [en.labels.tour, tourName],
            [en.labels.when, f.when(booking.startsAt)],
            [en.labels.paidNow, received],
            ...(request ? [[en.labels.payment, request.paymentId] as [string, string]] : []),
            ...amounts,
          ],
        },
        {
          type: 'paragraph',
          text:
            outstanding > 0
              ? en.payment_received.balanceDue(f.money(outstanding))
              : en.payment_received.settled,
        },
        ...page,
      ]);
    }

    case 'booking_changed': {
      const request = context.request as Of<'booking_changed'> | null;
      const notes: Block[] = [];
      if (request?.previousStartsAt) notes.push({ type: 'paragraph', text: en.booking_changed.moved });
      if (request?.previousParticipantCount != null) {
        notes.push({
          type: 'paragraph',
          text: en.booking_changed.participants(request.previousParticipantCount, booking.participantCount),
        });
      }
      const rows = [...departure, ...amounts];
      if (request?.previousStartsAt) rows.splice(3, 0, [en.labels.was, f.when(request.previousStartsAt)]);
      return message(en.booking_changed.subject(tourName, f.short(booking.startsAt)), [
        { type: 'paragraph', text: en.booking_changed.intro(context.workspaceName) },
        ...notes,
        { type: 'details', rows },
        ...page,
        ...(booking.status === 'CONFIRMED'
          ? [{ type: 'paragraph', text: en.calendarHint(links.calendarFile) } as Block]
          : []),
      ]);
    }

    case 'booking_cancelled': {
      const request = context.request as Of<'booking_cancelled'> | null;
      const refund = request?.refundAmount ?? 0;
      return message(en.booking_cancelled.subject(tourName, f.short(booking.startsAt)), [
        { type: 'paragraph', text: en.booking_cancelled.intro(booking.id) },
        {
          type: 'details',
          rows: [
            [en.labels.tour, tourName],
            [en.labels.when, f.when(booking.startsAt)],
            ...(request?.reason ? [[en.labels.reason, request.reason] as [string, string]] : []),
            ...amounts,
          ],
        },
        ...(refund > 0
          ? [{ type: 'paragraph', text: en.booking_cancelled.refund(f.money(refund)) } as Block]
          : booking.amountPaid > booking.amountRefunded
            ? [{ type: 'paragraph', text: en.booking_cancelled.noRefund } as Block]
            : []),
        ...page,
      ]);
    }

    case 'booking_status_changed': {
      const request = context.request as Of<'booking_status_changed'> | null;
      const status = request?.status ?? booking.status;
      if (status === 'COMPLETED') {
        const words = en.booking_status_changed.COMPLETED;
        return message(words.subject(context.workspaceName), [
          { type: 'paragraph', text: words.intro(tourName) },
        ]);
      }
      if (status === 'NO_SHOW') {
        const words = en.booking_status_changed.NO_SHOW;
        return message(words.subject(tourName), [
          { type: 'paragraph', text: words.intro(tourName, f.when(booking.startsAt)) },
          ...page,
        ]);
      }
      const words = en.booking_status_changed.other;
      return message(words.subject(tourName), [
        { type: 'paragraph', text: words.intro(status.toLowerCase()) },
        ...page,
      ]);
    }

    case 'hold_expiring': {
      const until = f.when(booking.expiresAt ?? booking.startsAt);
      return message(en.hold_expiring.subject(tourName, until), [
        { type: 'paragraph', text: en.hold_expiring.intro(until) },
        { type: 'details', rows: [...departure, [en.labels.outstanding, f.money(outstanding)]] },
        ...(links.bookingPage
          ? [
              {
                type: 'link',
                intro: en.hold_expiring.action,
                label: en.payNow,
                href: links.bookingPage,
              } as Block,
            ]
          : []),
      ]);
    }

    case 'departure_reminder':
      return message(en.departure_reminder.subject(tourName, f.short(booking.startsAt)), [
        { type: 'paragraph', text: en.departure_reminder.intro(tourName) },
        { type: 'details', rows: departure },
        { type: 'paragraph', text: en.departure_reminder.bring },
        ...page,
        ...(links.unsubscribe
          ? [
              {
                type: 'link',
                intro: en.unsubscribeHint,
                label: en.unsubscribe,
                href: links.unsubscribe,
                quiet: true,
              } as Block,
            ]
          : []),
      ]);
  }
};
