import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Keyset } from '@travelops/domain/shared';
import { badRequest } from './errors.js';

/**
 * Cursors are opaque, signed positions. The scope (operation, workspace, sort) is signed
 * with the position, so a cursor altered by hand or taken from another list is refused.
 */
interface CursorCodec {
  encode(scope: string, key: Keyset): string;
  decode(scope: string, cursor: string): Keyset;
}

export function createCursorCodec(secret: string): CursorCodec {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  const invalid = () =>
    badRequest('The cursor is invalid or belongs to another list.', 'cursor', 'invalid_cursor');

  return {
    encode(scope, key) {
      const payload = Buffer.from(JSON.stringify({ s: scope, v: key.value, i: key.id })).toString(
        'base64url',
      );
      return `${payload}.${sign(payload)}`;
    },
    decode(scope, cursor) {
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) throw invalid();
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
      const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (!isCursorBody(parsed) || parsed.s !== scope) throw invalid();
      return { value: parsed.v, id: parsed.i };
    },
  };
}

function isCursorBody(value: unknown): value is { s: string; v: string | number; i: string } {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return (
    typeof body.s === 'string' &&
    typeof body.i === 'string' &&
    (typeof body.v === 'string' || typeof body.v === 'number')
  );
}
