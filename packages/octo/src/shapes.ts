import type { ResellerContact } from '@travelops/domain/bookings';

/*
 * What the OCTO endpoints answer, field for field as OCTO core publishes it (`@octocloud/types`,
 * `src/openapi.yaml`); the contract tests validate every answer against that document. Times
 * are UTC without milliseconds (`2031-03-14T18:30:00Z`); local times carry the tour's offset.
 */

type OctoAvailabilityStatus = 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED';
export type OctoBookingStatus = 'ON_HOLD' | 'CONFIRMED' | 'EXPIRED' | 'CANCELLED' | 'REDEEMED' | 'PENDING';
export type OctoUnitType = 'ADULT' | 'YOUTH' | 'CHILD' | 'INFANT' | 'SENIOR' | 'STUDENT' | 'OTHER';

/** Served when the request's `Octo-Capabilities` names `octo/pricing`. */
export interface OctoPricing {
  original: number;
  retail: number;
  /** The reseller's net rate is agreed outside this service. */
  net: null;
  currency: string;
  currencyPrecision: number;
  includedTaxes: never[];
}

interface OctoUnitPricing extends OctoPricing {
  unitId: string;
}

export interface OctoUnit {
  id: string;
  internalName: string;
  reference: string | null;
  type: OctoUnitType;
  restrictions: {
    minAge: number;
    maxAge: number;
    idRequired: boolean;
    minQuantity: number | null;
    maxQuantity: number | null;
    paxCount: number;
    accompaniedBy: string[];
  };
  requiredContactFields: string[];
  pricingFrom?: OctoPricing[];
}

export interface OctoOption {
  id: string;
  default: boolean;
  internalName: string;
  reference: string | null;
  availabilityLocalStartTimes: string[];
  cancellationCutoff: string;
  cancellationCutoffAmount: number;
  cancellationCutoffUnit: 'hour';
  requiredContactFields: string[];
  restrictions: { minUnits: number; maxUnits: number | null };
  units: OctoUnit[];
}

export interface OctoProduct {
  id: string;
  internalName: string;
  reference: string | null;
  locale: string;
  timeZone: string;
  allowFreesale: boolean;
  instantConfirmation: boolean;
  instantDelivery: boolean;
  availabilityRequired: boolean;
  availabilityType: 'START_TIME';
  deliveryFormats: 'QRCODE'[];
  deliveryMethods: 'VOUCHER'[];
  redemptionMethod: 'MANIFEST';
  options: OctoOption[];
  defaultCurrency?: string;
  availableCurrencies?: string[];
  pricingPer?: 'UNIT';
}

export interface OctoAvailability {
  id: string;
  localDateTimeStart: string;
  localDateTimeEnd: string;
  utcCutoffAt: string;
  allDay: boolean;
  available: boolean;
  status: OctoAvailabilityStatus;
  vacancies: number;
  capacity: number;
  maxUnits: number | null;
  openingHours: never[];
  unitPricing?: OctoUnitPricing[];
}

export interface OctoCalendarDay {
  localDate: string;
  available: boolean;
  status: OctoAvailabilityStatus;
  vacancies: number;
  capacity: number;
  openingHours: never[];
  unitPricingFrom?: OctoUnitPricing[];
}

interface OctoVoucher {
  redemptionMethod: 'MANIFEST';
  utcRedeemedAt: string | null;
  deliveryOptions: { deliveryFormat: 'QRCODE'; deliveryValue: string }[];
}

export interface OctoUnitItem {
  uuid: string;
  resellerReference: string | null;
  supplierReference: string | null;
  unitId: string;
  unit?: OctoUnit;
  status: OctoBookingStatus;
  utcRedeemedAt: string | null;
  contact: ResellerContact;
  ticket: null;
  pricing?: OctoPricing;
}

export interface OctoBooking {
  id: string;
  uuid: string;
  testMode: boolean;
  resellerReference: string | null;
  supplierReference: string;
  status: OctoBookingStatus;
  utcCreatedAt: string;
  utcUpdatedAt: string;
  utcExpiresAt: string | null;
  utcRedeemedAt: string | null;
  utcConfirmedAt: string | null;
  productId: string;
  optionId: string;
  cancellable: boolean;
  cancellation: { refund: 'FULL' | 'PARTIAL' | 'NONE'; reason: string | null; utcCancelledAt: string } | null;
  freesale: boolean;
  availabilityId: string;
  availability: OctoAvailability;
  contact: ResellerContact;
  notes: string | null;
  deliveryMethods: 'VOUCHER'[];
  voucher: OctoVoucher;
  unitItems: OctoUnitItem[];
  pricing?: OctoPricing;
}

export interface OctoSupplier {
  id: string;
  name: string;
  endpoint: string;
  contact: { website: string | null; email: string | null; telephone: string | null; address: string | null };
}

export interface OctoCapability {
  id: string;
  revision: number;
  required: boolean;
  dependencies: string[];
  docs: string | null;
}
