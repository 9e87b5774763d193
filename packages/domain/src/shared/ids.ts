/** Prefixes of the opaque ids; the spec fixes the first four. */
export const ID_PREFIXES = {
  booking: 'bkg',
  customer: 'cus',
  tour: 'tour',
  availability: 'avl',
  workspace: 'ws',
  member: 'mem',
  apiToken: 'tok',
  session: 'ses',
  participant: 'ptc',
  event: 'evt',
  history: 'bhe',
  paymentSession: 'ps',
  payment: 'pay',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  company: 'cmp',
  lead: 'lead',
  crmTask: 'task',
  customerNote: 'note',
  blackoutDate: 'blk',
  timeOff: 'off',
  vehicle: 'veh',
  vendor: 'vnd',
  incident: 'inc',
  itinerary: 'itn',
  itineraryItem: 'iti',
  ticketType: 'tt',
  schedule: 'sch',
  resource: 'res',
  departureHistory: 'dhe',
  guestEmail: 'eml',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes from the platform CSPRNG (Web Crypto, no I/O module), drawn 4 KiB at a time:
 * one call per few hundred ids instead of one each (a booking makes five). Each byte is handed
 * out once.
 */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

function nextRandomByte(): number {
  if (used === POOL_BYTES) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++] as number;
}

/** Uniform random base62 text. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    // 248 = 62 * 4: rejecting the rest keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** A new id: prefix, underscore, 22 base62 characters (about 131 bits). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(22)}`;
}

export function hasIdPrefix(kind: IdKind, value: string): boolean {
  return value.startsWith(`${ID_PREFIXES[kind]}_`);
}
