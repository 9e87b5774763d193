import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying `t=<unix seconds>,v1=<hex>` (the spec's Events section). */
export const SIGNATURE_HEADER = 'service-signature';

/**
 * Header carrying the event id (`evt_...`), the same on every delivery attempt of one event,
 * so a receiver can drop duplicates (delivery is at least once). It is not covered by the
 * signature: compare it with the signed envelope's `id` before trusting it.
 */
export const EVENT_ID_HEADER = 'service-event-id';

/** A receiver rejects a delivery when |its clock - t| exceeds this many seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type SignatureHeader = { timestamp: number; signatures: string[] };

export type VerifyFailureReason = 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailureReason };

export type VerifyOptions = {
  /** The unparsed request body, byte for byte as received. */
  rawBody: string | Buffer;
  /** The `service-signature` header value; anything else (missing, repeated) is malformed. */
  header: string | readonly string[] | null | undefined;
  /** The endpoint's secret, or several during a rotation: any one may match. */
  secret: string | readonly string[];
  /** The receiver's clock: a Date or Unix seconds; defaults to the current time. */
  now?: Date | number;
  toleranceSeconds?: number;
};

/** Hex HMAC-SHA256 of `<t>.<raw body>`; a Buffer body is hashed as the bytes it holds. */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  assertSecret(secret);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole Unix seconds, got ${timestamp}`);
  }
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The `service-signature` value; one `v1` per secret, so a rotation can sign with old and new. */
export function sign(
  secret: string | readonly string[],
  rawBody: string | Buffer,
  now: Date | number,
): string {
  const secrets = toSecretList(secret);
  const timestamp = toUnixSeconds(now);
  const v1 = secrets.map((s) => `v1=${computeSignature(s, timestamp, rawBody)}`);
  return [`t=${timestamp}`, ...v1].join(',');
}

/** Reads `t` and every `v1`; unknown keys are ignored. Returns null, never throws, when unusable. */
export function parseSignatureHeader(header: string): SignatureHeader | null {
  if (typeof header !== 'string') return null;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      // Two timestamps are ambiguous; a non-canonical one is not what the sender signed.
      if (timestamp !== undefined || !/^[1-9][0-9]*$/.test(value)) return null;
      timestamp = Number(value);
      if (!Number.isSafeInteger(timestamp)) return null;
    } else if (key === 'v1' && value !== '') {
      signatures.push(value);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/**
 * Checks a delivery. Never throws for anything that arrives over the wire (header, body);
 * throws only on a configuration bug (no or empty secret, invalid `now` or tolerance).
 */
export function verify(options: VerifyOptions): VerifyResult {
  const secrets = toSecretList(options.secret);
  const nowSeconds = toUnixSeconds(options.now ?? new Date());
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`toleranceSeconds must be a non-negative number, got ${tolerance}`);
  }

  const parsed = typeof options.header === 'string' ? parseSignatureHeader(options.header) : null;
  if (parsed === null) return { ok: false, reason: 'malformed_header' };

  const { rawBody } = options;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    return { ok: false, reason: 'no_matching_signature' };
  }
  const supplied = parsed.signatures.filter(isSha256Hex).map((hex) => Buffer.from(hex, 'hex'));
  const matched = secrets.some((s) => {
    const expected = Buffer.from(computeSignature(s, parsed.timestamp, rawBody), 'hex');
    return supplied.some(
      (candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected),
    );
  });
  if (!matched) return { ok: false, reason: 'no_matching_signature' };

  // Checked after the signature, so this reason always means a genuine but replayed or skewed delivery.
  if (Math.abs(nowSeconds - parsed.timestamp) > tolerance) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }
  return { ok: true, timestamp: parsed.timestamp };
}

export function isValidSignature(options: VerifyOptions): boolean {
  return verify(options).ok;
}

// Buffer.from(hex, 'hex') stops silently at the first non-hex character, so the shape is checked first.
function isSha256Hex(value: string): boolean {
  return /^[0-9a-f]{64}$/i.test(value);
}

function toSecretList(secret: string | readonly string[]): readonly string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) throw new TypeError('at least one secret is required');
  for (const s of secrets) assertSecret(s);
  return secrets;
}

// An empty key would let anyone compute a valid signature.
function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('a webhook secret must be a non-empty string');
  }
}

function toUnixSeconds(now: Date | number): number {
  const seconds = now instanceof Date ? now.getTime() / 1000 : now;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
    throw new RangeError('now must be a valid Date or Unix seconds');
  }
  return Math.floor(seconds);
}
