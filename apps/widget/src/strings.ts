/**
 * Every English word the widget shows, in one place: a translation is a copy of this file.
 * Dates and money are not here: `format.ts` writes them with Intl in the guest's locale.
 */
export const strings = {
  widgetLabel: 'Book a tour',
  loading: 'Loading…',
  back: 'Back',
  continue: 'Continue',
  stepOf: (step: number, of: number) => `Step ${step} of ${of}`,

  chooseTour: 'Choose a tour',
  noTours: 'No tours can be booked online right now.',
  fromPrice: (price: string) => `from ${price}`,
  minutes: (n: number) =>
    n % 60 === 0 ? `${n / 60} h` : n > 60 ? `${Math.floor(n / 60)} h ${n % 60} min` : `${n} min`,
  chooseThisTour: (name: string) => `Choose ${name}`,

  chooseDate: 'Choose a date',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  dayStatus: {
    AVAILABLE: 'available',
    LIMITED: 'few seats left',
    SOLD_OUT: 'sold out',
    CLOSED: 'nothing to book',
  } as Record<string, string>,
  dayLabel: (date: string, status: string, price: string | null) =>
    price ? `${date}: ${status}, from ${price}` : `${date}: ${status}`,
  soldOut: 'Sold out',
  legendAvailable: 'Available',
  legendLimited: 'Few seats left',
  noDatesThisMonth: 'Nothing can be booked this month. Try the next one.',

  chooseTime: 'Choose a time',
  noTimes: 'Nothing is left on this day. Please choose another date.',
  seatsLeft: (n: number) => (n === 1 ? '1 seat left' : `${n} seats left`),

  chooseGuests: 'Who is coming?',
  guestsFallbackName: 'Guests',
  ages: (min: number | null, max: number | null) =>
    min !== null && max !== null
      ? `Ages ${min}–${max}`
      : min !== null
        ? `Age ${min}+`
        : max !== null
          ? `Up to age ${max}`
          : '',
  addOne: (name: string) => `Add one ${name}`,
  removeOne: (name: string) => `Remove one ${name}`,
  countOf: (n: number, name: string) => `${n} × ${name}`,
  total: (amount: string) => `Total: ${amount}`,
  maxGuests: (n: number) => `At most ${n} people per online booking.`,
  needsAdult: (name: string) => `${name} tickets need an adult on the booking.`,
  atLeast: (n: number, name: string) => `${name}: at least ${n} per booking.`,
  pickSomeone: 'Add at least one person to continue.',

  yourDetails: 'Your details',
  /** The name field of the n-th seat of a ticket type ("Name of Adult 2"); a tour without types: "Name of guest 2". */
  participantName: (ticket: string | null, n: number) => `Name of ${ticket ?? 'guest'} ${n}`,
  contact: 'Contact for this booking',
  contactName: 'Your name',
  email: 'E-mail',
  emailHint: 'We send the confirmation here.',
  phone: 'Phone (optional)',
  summary: 'Summary',
  bookAndPay: (amount: string) => `Book and pay ${amount}`,
  booking: 'Booking…',
  toCheckout: 'Booked. Taking you to the payment page…',
  holdNote: (minutes: number) => `Your seats are held for ${minutes} minutes while you pay.`,

  errors: {
    soldOut: 'Sorry, those seats were just taken. Please choose again: the times below are up to date.',
    rateLimited: (seconds: number) =>
      `Too many booking attempts from your connection. Trying again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}…`,
    network: 'We could not reach the booking service. Check your connection and try again.',
    server: 'The booking service had a problem. Please try again in a moment.',
    notFound: 'This tour can no longer be booked online.',
    invalid: 'Please check the following:',
    byIssue: {
      too_many_for_public_booking: 'Too many people for one online booking.',
      max_capacity_exceeded: 'Too many people for this departure.',
      adult_required: 'Children and infants need an adult on the booking.',
      below_minimum: 'Fewer people of one ticket type than it allows per booking.',
      above_maximum: 'More people of one ticket type than it allows per booking.',
      invalid_email: 'The e-mail address does not look right.',
      not_bookable: 'This departure can no longer be booked.',
      departure_not_bookable: 'This departure can no longer be booked.',
    } as Record<string, string>,
    byField: {
      'customer.name': 'Your name',
      'customer.email': 'E-mail',
      'customer.phone': 'Phone',
      participants: 'People on the booking',
      availabilityId: 'The time you chose',
    } as Record<string, string>,
    participant: (n: number) => `Name of person ${n}`,
    fieldProblem: (label: string) => `${label}: please check this.`,
  },
} as const;
