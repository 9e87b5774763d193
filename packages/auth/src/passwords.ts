import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 64;
// Bounds for stored parameters, so a corrupt or hostile hash cannot demand unbounded work or memory.
const MAX_MEMORY_BYTES = 64 * 1024 * 1024;
const MAX_P = 16;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DECIMAL = /^[1-9][0-9]{0,9}$/;

function deriveKey(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Node refuses scrypt above 32 MiB by default; parseHash already capped what we may ask for.
    scrypt(password, salt, keyLength, { ...options, maxmem: 2 * MAX_MEMORY_BYTES }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Encodes as `scrypt$N$r$p$<salt base64>$<key base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveKey(password, salt, KEY_BYTES, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  options: { N: number; r: number; p: number };
  salt: Buffer;
  key: Buffer;
}

function parseHash(encoded: string): ParsedHash | null {
  const parts = encoded.split('$');
  if (parts.length !== 6) return null;
  const [scheme, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  if (scheme !== 'scrypt') return null;
  if (![n, r, p].every((part) => DECIMAL.test(part))) return null;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const nIsPowerOfTwo = options.N > 1 && (options.N & (options.N - 1)) === 0;
  // scrypt needs about 128 * N * r bytes.
  if (!nIsPowerOfTwo || 128 * options.N * options.r > MAX_MEMORY_BYTES || options.p > MAX_P) return null;
  if (!BASE64.test(salt) || !BASE64.test(key)) return null;
  const parsed = { options, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
  if (parsed.salt.length < 8 || parsed.key.length < 16 || parsed.key.length > 256) return null;
  return parsed;
}

/** True only for the right password; a malformed encoding is simply false, never an exception. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (parsed === null) return false;
  try {
    const key = await deriveKey(password, parsed.salt, parsed.key.length, parsed.options);
    return timingSafeEqual(key, parsed.key);
  } catch {
    return false;
  }
}
