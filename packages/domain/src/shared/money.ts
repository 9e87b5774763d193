/** ISO 4217 currencies with a minor unit other than 2 (cents); the rest use 2. */
const MINOR_UNIT_EXCEPTIONS: Record<string, number> = {
  BHD: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

export function minorUnitDigits(currency: string): number {
  return MINOR_UNIT_EXCEPTIONS[currency] ?? 2;
}

/** A share of an amount in whole percent, rounded half up to the minor unit. */
export function percentOf(amount: number, percent: number): number {
  return Math.floor((amount * percent + 50) / 100);
}
