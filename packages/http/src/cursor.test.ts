import { describe, expect, it } from 'vitest';
import { createCursorCodec } from './cursor.js';
import { HttpError } from './errors.js';

const codec = createCursorCodec('secret-one');

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return error instanceof HttpError ? { status: error.status, details: error.error.details } : error;
  }
  return 'accepted';
}

const refused = { status: 400, details: [{ field: 'cursor', issue: 'invalid_cursor' }] };

describe('cursor codec', () => {
  const cursor = codec.encode('listTours:ws_a:', { value: '2026-01-01T00:00:00.000Z', id: 'tour_x' });

  it('round-trips a position within its scope', () => {
    expect(codec.decode('listTours:ws_a:', cursor)).toEqual({
      value: '2026-01-01T00:00:00.000Z',
      id: 'tour_x',
    });
  });

  it('refuses a cursor from another list or workspace', () => {
    expect(refusal(() => codec.decode('listTours:ws_b:', cursor))).toEqual(refused);
    expect(refusal(() => codec.decode('listCustomers:ws_a:', cursor))).toEqual(refused);
  });

  it('refuses a tampered payload, a forged signature and garbage', () => {
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ s: 'listTours:ws_a:', v: 'x', i: 'tour_y' })).toString(
      'base64url',
    );
    expect(refusal(() => codec.decode('listTours:ws_a:', `${forged}.${signature}`))).toEqual(refused);
    expect(refusal(() => codec.decode('listTours:ws_a:', `${payload}.AAAA`))).toEqual(refused);
    expect(refusal(() => codec.decode('listTours:ws_a:', 'garbage'))).toEqual(refused);
    expect(refusal(() => codec.decode('listTours:ws_a:', `${cursor}.x`))).toEqual(refused);
  });

  it('refuses a cursor signed with another key', () => {
    const foreign = createCursorCodec('secret-two').encode('listTours:ws_a:', { value: 'v', id: 'i' });
    expect(refusal(() => codec.decode('listTours:ws_a:', foreign))).toEqual(refused);
  });
});
