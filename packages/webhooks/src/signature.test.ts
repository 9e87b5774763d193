import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  isValidSignature,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  sign,
  verify,
} from './index.js';

const SECRET = 'whsec_test';
const T = 1_700_000_000;
const BODY = '{"id":"evt_1"}';
// Literal vectors computed outside this code: printf '%s' '<t>.<body>' | openssl dgst -sha256 -hmac <secret>
const HEX_TEST = 'c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925';
const HEX_OLD = 'ef1b1b7e4b312671a75ef2a03e10529f7834a6528a49db77ad6568c8c8017843';
const HEX_NEW = 'f3ac0c93c23f69e2e6046d7f0e2c82c93d0403de0f8651457189ab70fbbfcaae';
const UTF8_BODY = '{"name":"Zürich – 東京"}';
const HEX_UTF8 = 'b70e5d62553866e973a740c1b806f45172110fbe49de87405da3e31a0c95e3c2';
const INVALID_UTF8_BYTES = Buffer.from([0xff, 0xfe, 0x00]);
const HEX_INVALID_UTF8 = '65f03d4bb70c111284c77434582fa56746b0e0abe38c313a208ef3a36de12f14';

const HEADER = `t=${T},v1=${HEX_TEST}`;

describe('constants', () => {
  it('names the spec headers and the 300 s replay window', () => {
    expect(SIGNATURE_HEADER).toBe('service-signature');
    expect(EVENT_ID_HEADER).toBe('service-event-id');
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });
});

describe('computeSignature', () => {
  it('matches the known-answer vector for whsec_test, t=1700000000, {"id":"evt_1"}', () => {
    expect(computeSignature(SECRET, T, BODY)).toBe(HEX_TEST);
  });

  it('is HMAC-SHA256 over "<t>.<raw body>", hex encoded', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`, 'utf8').digest('hex');
    expect(computeSignature(SECRET, T, BODY)).toBe(expected);
  });

  it('hashes a string body as UTF-8, the same bytes as the equivalent Buffer', () => {
    expect(computeSignature(SECRET, T, UTF8_BODY)).toBe(HEX_UTF8);
    expect(computeSignature(SECRET, T, Buffer.from(UTF8_BODY, 'utf8'))).toBe(HEX_UTF8);
    expect(computeSignature(SECRET, T, Buffer.from(UTF8_BODY, 'latin1'))).not.toBe(HEX_UTF8);
  });

  it('hashes a Buffer body as its exact bytes, never re-encoded (even when not valid UTF-8)', () => {
    expect(computeSignature(SECRET, T, INVALID_UTF8_BYTES)).toBe(HEX_INVALID_UTF8);
    expect(computeSignature(SECRET, T, INVALID_UTF8_BYTES.toString('utf8'))).not.toBe(HEX_INVALID_UTF8);
  });

  it('throws on a programming error: empty secret or non-integer timestamp', () => {
    expect(() => computeSignature('', T, BODY)).toThrow(TypeError);
    expect(() => computeSignature(SECRET, 1.5, BODY)).toThrow(RangeError);
    expect(() => computeSignature(SECRET, Number.NaN, BODY)).toThrow(RangeError);
  });
});

describe('sign', () => {
  it('produces t=<unix seconds>,v1=<hex> from unix seconds or a Date', () => {
    expect(sign(SECRET, BODY, T)).toBe(HEADER);
    expect(sign(SECRET, BODY, new Date(T * 1000 + 999))).toBe(HEADER);
  });

  it('emits one v1 per secret, in order, for a rotation overlap', () => {
    expect(sign(['whsec_old', 'whsec_new'], BODY, T)).toBe(`t=${T},v1=${HEX_OLD},v1=${HEX_NEW}`);
  });

  it('throws on a programming error: no secret, empty secret, invalid now', () => {
    expect(() => sign([], BODY, T)).toThrow(TypeError);
    expect(() => sign(['whsec_old', ''], BODY, T)).toThrow(TypeError);
    expect(() => sign(SECRET, BODY, new Date(Number.NaN))).toThrow(RangeError);
    expect(() => sign(SECRET, BODY, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('verify', () => {
  const ok = { ok: true, timestamp: T };

  it('accepts a round trip: sign then verify with the same secret, body and clock', () => {
    const header = sign(SECRET, BODY, T);
    expect(verify({ rawBody: BODY, header, secret: SECRET, now: T })).toEqual(ok);
    expect(verify({ rawBody: BODY, header, secret: SECRET, now: new Date(T * 1000) })).toEqual(ok);
    expect(isValidSignature({ rawBody: BODY, header, secret: SECRET, now: T })).toBe(true);
  });

  it('accepts a round trip with the current clock when now is omitted', () => {
    const header = sign(SECRET, BODY, new Date());
    expect(verify({ rawBody: BODY, header, secret: SECRET }).ok).toBe(true);
  });

  it('rejects a body changed by one byte', () => {
    const tampered = Buffer.from(BODY);
    const at = tampered.length - 3; // the '1' of evt_1 becomes '0'
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0x01, at);
    expect(tampered.toString()).toBe('{"id":"evt_0"}');
    expect(verify({ rawBody: tampered, header: HEADER, secret: SECRET, now: T })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('rejects a timestamp changed after signing, even within tolerance', () => {
    const header = `t=${T + 1},v1=${HEX_TEST}`;
    expect(verify({ rawBody: BODY, header, secret: SECRET, now: T })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('rejects a wrong secret', () => {
    expect(verify({ rawBody: BODY, header: HEADER, secret: 'whsec_other', now: T })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it.each([
    ['stale: now - t = 301', T + 301],
    ['future: t - now = 301', T - 301],
  ])('rejects a genuine signature outside the 300 s window (%s)', (_, now) => {
    expect(verify({ rawBody: BODY, header: HEADER, secret: SECRET, now })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it.each([
    ['now - t = 300', T + 300],
    ['t - now = 300', T - 300],
  ])('accepts exactly at the tolerance (%s)', (_, now) => {
    expect(verify({ rawBody: BODY, header: HEADER, secret: SECRET, now })).toEqual(ok);
  });

  it('honours a custom tolerance', () => {
    expect(
      verify({ rawBody: BODY, header: HEADER, secret: SECRET, now: T + 10, toleranceSeconds: 5 }),
    ).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('reports a forged stale delivery as a signature failure, not a timing one', () => {
    const header = `t=${T},v1=${'0'.repeat(64)}`;
    expect(verify({ rawBody: BODY, header, secret: SECRET, now: T + 10_000 })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  describe('secret rotation', () => {
    const both = `t=${T},v1=${HEX_OLD},v1=${HEX_NEW}`;

    it.each([
      ['old', 'whsec_old'],
      ['new', 'whsec_new'],
    ])('a header signed with old and new verifies with the %s secret alone', (_, secret) => {
      expect(verify({ rawBody: BODY, header: both, secret, now: T })).toEqual(ok);
    });

    it.each([
      ['old only', `t=${T},v1=${HEX_OLD}`],
      ['new only', `t=${T},v1=${HEX_NEW}`],
      ['old and new', both],
    ])('a verifier given [old, new] accepts a header signed with %s', (_, header) => {
      expect(verify({ rawBody: BODY, header, secret: ['whsec_old', 'whsec_new'], now: T })).toEqual(ok);
    });

    it('a verifier given [old, new] rejects a third secret', () => {
      const header = sign('whsec_other', BODY, T);
      expect(verify({ rawBody: BODY, header, secret: ['whsec_old', 'whsec_new'], now: T }).ok).toBe(false);
    });
  });

  it('treats string and Buffer bodies alike, including non-ASCII UTF-8', () => {
    const header = sign(SECRET, UTF8_BODY, T);
    expect(header).toBe(`t=${T},v1=${HEX_UTF8}`);
    expect(verify({ rawBody: UTF8_BODY, header, secret: SECRET, now: T })).toEqual(ok);
    expect(verify({ rawBody: Buffer.from(UTF8_BODY, 'utf8'), header, secret: SECRET, now: T })).toEqual(ok);
    expect(sign(SECRET, Buffer.from(UTF8_BODY, 'utf8'), T)).toBe(header);
  });

  it('verifies a Buffer body that is not valid UTF-8 by its bytes', () => {
    const header = `t=${T},v1=${HEX_INVALID_UTF8}`;
    expect(verify({ rawBody: INVALID_UTF8_BYTES, header, secret: SECRET, now: T })).toEqual(ok);
  });

  describe('malformed or unmatched headers', () => {
    const sig = HEX_TEST;
    it.each<[string, unknown, string]>([
      ['missing', undefined, 'malformed_header'],
      ['null', null, 'malformed_header'],
      ['repeated (array)', [HEADER, HEADER], 'malformed_header'],
      ['empty', '', 'malformed_header'],
      ['only spaces and commas', ' , ,', 'malformed_header'],
      ['t= (empty value), no v1', 't=', 'malformed_header'],
      ['t= (empty value) with v1', `t=,v1=${sig}`, 'malformed_header'],
      ['v1 without t', `v1=${sig}`, 'malformed_header'],
      ['t without v1', `t=${T}`, 'malformed_header'],
      ['t with empty v1', `t=${T},v1=`, 'malformed_header'],
      ['non-numeric t', `t=abc,v1=${sig}`, 'malformed_header'],
      ['negative t', `t=-${T},v1=${sig}`, 'malformed_header'],
      ['fractional t', `t=${T}.5,v1=${sig}`, 'malformed_header'],
      ['exponent t', `t=1.7e9,v1=${sig}`, 'malformed_header'],
      ['leading-zero t', `t=0${T},v1=${sig}`, 'malformed_header'],
      ['absurd t beyond a safe integer', `t=99999999999999999999,v1=${sig}`, 'malformed_header'],
      ['duplicate t', `t=${T},t=${T},v1=${sig}`, 'malformed_header'],
      ['upper-case keys', `T=${T},V1=${sig}`, 'malformed_header'],
      ['odd-length v1', `t=${T},v1=${sig.slice(1)}`, 'no_matching_signature'],
      ['short v1', `t=${T},v1=abc`, 'no_matching_signature'],
      ['non-hex v1', `t=${T},v1=${'z'.repeat(64)}`, 'no_matching_signature'],
      ['valid hex followed by garbage', `t=${T},v1=${sig}zz`, 'no_matching_signature'],
      ['over-long v1', `t=${T},v1=${sig}00`, 'no_matching_signature'],
    ])('%s -> %s', (_, header, reason) => {
      const result = verify({ rawBody: BODY, header: header as string, secret: SECRET, now: T });
      expect(result).toEqual({ ok: false, reason });
    });

    it.each([
      ['spaces around pairs, keys and values', ` t = ${T} ,  v1 = ${HEX_TEST} `],
      ['unknown keys (a future v2, v0) ignored', `t=${T},v0=deadbeef,v1=${HEX_TEST},v2=${'a'.repeat(64)}`],
      ['a part without "=" ignored', `t=${T},garbage,v1=${HEX_TEST}`],
      ['the same v1 twice', `t=${T},v1=${HEX_TEST},v1=${HEX_TEST}`],
      ['a junk v1 next to the good one', `t=${T},v1=abc,v1=${HEX_TEST}`],
      ['upper-case hex', `t=${T},v1=${HEX_TEST.toUpperCase()}`],
      ['pairs in another order', `v1=${HEX_TEST},t=${T}`],
    ])('accepts %s', (_, header) => {
      expect(verify({ rawBody: BODY, header, secret: SECRET, now: T })).toEqual(ok);
    });
  });

  it('never throws for hostile headers or bodies', () => {
    const hostile: unknown[] = [
      '',
      '=',
      ',,,,',
      '==,==',
      't',
      't==1',
      `t=${T},v1`,
      `t=${T},v1==`,
      't=\u0000,v1=\u0000',
      `t=${T},v1=${'é'.repeat(32)}`,
      `t=${T},v1=${'\u{1F600}'.repeat(16)}`,
      `t=${T},${'v1=ab,'.repeat(10_000)}`,
      'x'.repeat(100_000),
      't=constructor,v1=__proto__',
      '__proto__=1,t=1,v1=1',
      `t=${Number.MAX_SAFE_INTEGER},v1=${HEX_TEST}`,
      `t=1,v1=${HEX_TEST}`,
      42,
      {},
      [],
      [42],
    ];
    const bodies: unknown[] = [BODY, '', Buffer.alloc(0), INVALID_UTF8_BYTES, undefined, null, {}, 42];
    for (const header of hostile) {
      for (const rawBody of bodies) {
        const run = () =>
          verify({ rawBody: rawBody as string, header: header as string, secret: SECRET, now: T });
        expect(run).not.toThrow();
        expect(run().ok).toBe(false);
      }
    }
    // A genuine header with a body that is not bytes (e.g. already parsed JSON) fails closed.
    expect(verify({ rawBody: JSON.parse(BODY), header: HEADER, secret: SECRET, now: T })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('throws on a configuration bug, never silently accepting: no secret, empty secret, bad tolerance', () => {
    const base = { rawBody: BODY, header: HEADER, now: T };
    expect(() => verify({ ...base, secret: [] })).toThrow(TypeError);
    expect(() => verify({ ...base, secret: '' })).toThrow(TypeError);
    expect(() => verify({ ...base, secret: SECRET, toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verify({ ...base, secret: SECRET, now: Number.NaN })).toThrow(RangeError);
  });
});

describe('parseSignatureHeader', () => {
  it('reads t and every v1 in order', () => {
    expect(parseSignatureHeader(`t=${T},v1=aa,v2=bb,v1=cc`)).toEqual({
      timestamp: T,
      signatures: ['aa', 'cc'],
    });
  });

  it.each(['', 't=', `v1=${HEX_TEST}`, `t=abc,v1=${HEX_TEST}`, `t=${T}`, 'garbage'])(
    'returns null for %j',
    (header) => {
      expect(parseSignatureHeader(header)).toBeNull();
    },
  );

  it('returns null rather than throwing for a non-string at runtime', () => {
    expect(parseSignatureHeader(undefined as unknown as string)).toBeNull();
  });
});
