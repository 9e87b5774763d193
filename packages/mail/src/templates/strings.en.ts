/**
 * Every English word of the guest e-mails, in one place (a translation is a copy of this file).
 * Values are plain text: the layout escapes them for HTML, whatever a name or a reason holds.
 */
export const en = {
  greeting: (name: string) => `Hello ${name},`,
  signOff: (workspace: string) => `Kind regards,\n${workspace}`,
  footer: (workspace: string, canReply: boolean) =>
    `You receive this e-mail because of your booking with ${workspace}.${canReply ? ' Reply to this e-mail to reach them.' : ''}`,
  viewBooking: 'View your booking',
  payNow: 'Pay now',
  bookingPageHint: 'Your booking page shows everything about this booking and what you can do with it:',
  calendarHint: (url: string | null) =>
    url
      ? `The booking.ics attached (also at ${url}) adds the departure to your calendar.`
      : 'The booking.ics attached adds the departure to your calendar.',
  unsubscribe: 'Stop reminders for this booking',
  unsubscribeHint: 'No more reminders for this booking?',

  labels: {
    reference: 'Booking',
    tour: 'Tour',
    when: 'When',
    was: 'Before',
    meetingPoint: 'Meeting point',
    duration: 'Duration',
    participants: 'Participants',
    total: 'Total',
    paid: 'Paid',
    paidNow: 'Received now',
    outstanding: 'Still to pay',
    refunded: 'Refunded',
    payment: 'Payment',
    reason: 'Reason',
    holdUntil: 'Held until',
  },
  meetingPointLater: 'to be confirmed',
  minutes: (n: number) =>
    n < 60 ? `${n} min` : n % 60 === 0 ? `${n / 60} h` : `${Math.floor(n / 60)} h ${n % 60} min`,

  booking_confirmed: {
    subject: (tour: string, when: string) => `Booking confirmed: ${tour}, ${when}`,
    intro: (workspace: string) => `Your booking with ${workspace} is confirmed. See you there!`,
    cancelUntil: (cutoff: string) => `You can cancel on your booking page until ${cutoff}.`,
  },
  payment_received: {
    subject: (amount: string, tour: string) => `Payment received: ${amount} for ${tour}`,
    intro: (amount: string) => `Thank you: we have received your payment of ${amount}. This is your receipt.`,
    settled: 'Your booking is paid in full.',
    balanceDue: (amount: string) =>
      `${amount} is still to pay; your booking page takes it when you are ready.`,
  },
  booking_changed: {
    subject: (tour: string, when: string) => `Booking changed: ${tour}, ${when}`,
    intro: (workspace: string) => `${workspace} has changed your booking. Here it is as it stands now.`,
    moved: 'It has moved to another departure.',
    participants: (before: number, now: number) =>
      before === now ? 'The list of participants has changed.' : `It is now for ${now}, no longer ${before}.`,
  },
  booking_cancelled: {
    subject: (tour: string, when: string) => `Booking cancelled: ${tour}, ${when}`,
    intro: (reference: string) => `Your booking ${reference} is cancelled.`,
    refund: (amount: string) =>
      `We are refunding ${amount} to the way you paid; your bank may take a few days to show it.`,
    noRefund: 'Under the cancellation policy of your booking, no refund is due.',
  },
  booking_status_changed: {
    COMPLETED: {
      subject: (workspace: string) => `Thank you for travelling with ${workspace}`,
      intro: (tour: string) => `Thank you for joining ${tour}. We hope you enjoyed it.`,
    },
    NO_SHOW: {
      subject: (tour: string) => `We missed you on ${tour}`,
      intro: (tour: string, when: string) =>
        `We did not see you at ${tour} on ${when}. If that is a mistake, reply to this e-mail.`,
    },
    other: {
      subject: (tour: string) => `Your booking for ${tour}`,
      intro: (status: string) => `Your booking is now ${status}.`,
    },
  },
  hold_expiring: {
    subject: (tour: string, until: string) => `Your seats on ${tour} are held until ${until}`,
    intro: (until: string) =>
      `Your booking is not paid yet. We hold your seats until ${until}; after that they go back on sale.`,
    action: 'Pay on your booking page to keep them:',
  },
  departure_reminder: {
    subject: (tour: string, when: string) => `Reminder: ${tour}, ${when}`,
    intro: (tour: string) => `A reminder: ${tour} is coming up soon.`,
    bring: 'Please be at the meeting point a little early.',
  },
} as const;
