import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('hashPassword', () => {
  it('encodes scrypt$16384$8$1$<16-byte salt>$<64-byte key> in base64', async () => {
    const encoded = await hashPassword('correct horse battery staple');
    const [scheme, n, r, p, salt, key, ...rest] = encoded.split('$');
    expect([scheme, n, r, p, rest.length]).toEqual(['scrypt', '16384', '8', '1', 0]);
    expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(64);
  });

  it('salts: the same password hashes differently each time', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });
});

describe('verifyPassword', () => {
  it('accepts the password it hashed and rejects any other', async () => {
    const encoded = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', encoded)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', encoded)).toBe(false);
    expect(await verifyPassword('Correct horse battery staple', encoded)).toBe(false);
    expect(await verifyPassword('', encoded)).toBe(false);
  });

  it('handles non-ASCII passwords', async () => {
    const encoded = await hashPassword('pässwörd-密码-🔑');
    expect(await verifyPassword('pässwörd-密码-🔑', encoded)).toBe(true);
    expect(await verifyPassword('passwort-密码-🔑', encoded)).toBe(false);
  });

  it('verifies hashes made with other valid parameters', async () => {
    const encoded = await hashPassword('parameters');
    const [, , , , salt] = encoded.split('$');
    const { scryptSync } = await import('node:crypto');
    const key = scryptSync('parameters', Buffer.from(salt ?? '', 'base64'), 32, { N: 1024, r: 4, p: 2 });
    expect(await verifyPassword('parameters', `scrypt$1024$4$2$${salt}$${key.toString('base64')}`)).toBe(
      true,
    );
  });

  it('returns false, never throws, for malformed encodings', async () => {
    const valid = await hashPassword('secret password');
    const [, , , , salt, key] = valid.split('$') as string[];
    const malformed = [
      '',
      'not-a-hash',
      'scrypt',
      'scrypt$$$$$',
      `bcrypt$16384$8$1$${salt}$${key}`,
      `scrypt$16384$8$1$${salt}`,
      `scrypt$16384$8$1$${salt}$${key}$extra`,
      `scrypt$abc$8$1$${salt}$${key}`,
      `scrypt$-16384$8$1$${salt}$${key}`,
      `scrypt$0$8$1$${salt}$${key}`,
      `scrypt$1$8$1$${salt}$${key}`,
      `scrypt$16383$8$1$${salt}$${key}`,
      `scrypt$1e4$8$1$${salt}$${key}`,
      `scrypt$16384$0$1$${salt}$${key}`,
      `scrypt$16384$8$0$${salt}$${key}`,
      `scrypt$1073741824$8$1$${salt}$${key}`,
      `scrypt$16384$99999$1$${salt}$${key}`,
      `scrypt$16384$8$99999$${salt}$${key}`,
      `scrypt$16384$8$1$$${key}`,
      `scrypt$16384$8$1$${salt}$`,
      `scrypt$16384$8$1$!!!!$${key}`,
      `scrypt$16384$8$1$${salt}$not*base64`,
      `scrypt$16384$8$1$${salt}$AAAA`,
      `scrypt$16384$8$1$AAAA$${key}`,
      `scrypt$16384$8$1$${salt}$${key}`.replace('scrypt', 'SCRYPT'),
    ];
    for (const encoded of malformed) {
      await expect(verifyPassword('secret password', encoded), encoded).resolves.toBe(false);
    }
  });
});
