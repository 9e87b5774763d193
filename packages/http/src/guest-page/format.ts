import { localMoneyFormat } from '@travelops/domain/shared';

/**
 * The guest's locale from `Accept-Language`: its first tag this runtime formats, else `en`.
 * Words stay English (one strings table); dates and money follow the guest's conventions.
 */
export function localeOf(acceptLanguage: string | undefined): string {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim();
    if (!tag || tag === '*') continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      // Not a well-formed language tag: try the next one.
    }
  }
  return 'en';
}

export interface Formatters {
  /** Minor units of the booking's currency as money: `12500` EUR -> `€125.00`. */
  money(amount: number): string;
  /** An instant in the tour's time zone, with the zone's name. */
  dateTime(iso: string): string;
}

export function formatters(locale: string, currency: string, timeZone: string): Formatters {
  // JPY has no minor unit, EUR two, BHD three: the domain's one table says, not the runtime's CLDR.
  const money = localMoneyFormat(currency, locale);
  const dateTime = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
  return {
    money,
    dateTime: (iso) => dateTime.format(new Date(iso)),
  };
}
