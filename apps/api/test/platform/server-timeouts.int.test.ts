import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2' });
});
afterAll(() => t.close());

/** Writes `head` on a raw connection, then nothing more; resolves with what the server answers before closing. */
function sendAndStall(head: string): Promise<string> {
  const { hostname, port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('server timeouts', () => {
  it('a body that never arrives gets 408 and the connection closes', async () => {
    const answer = await sendAndStall(
      'POST /public/nowhere/bookings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"avail',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);

  it('headers that never end get 408 and the connection closes', async () => {
    const answer = await sendAndStall('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);

  it('a prompt request is unaffected', async () => {
    expect((await t.request('GET', '/healthz')).status).toBe(200);
  });
});
