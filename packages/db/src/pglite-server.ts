import { createServer, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import type { Knex } from 'knex';

/** The codes of the requests a client may send before its startup message (no message type byte). */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Terminate ('X'): the client is leaving. */
const TERMINATE = 0x58;

export interface PgliteServer {
  /** The loopback port it listens on. */
  port: number;
  close(): Promise<void>;
}

/**
 * Serves an embedded PGlite database to local tools (the operator CLI, psql) over the PostgreSQL
 * wire protocol on a loopback port, beside the process that owns it. PGlite has one session:
 * a client holds it, through the knex pool of that process (one connection), from its startup
 * message to its last byte, so its statements never land inside a transaction of the process's
 * own; other clients and the process's queries wait meanwhile. A client should open one
 * connection at a time and use unnamed statements (prepared ones would outlive it).
 */
export async function servePglite(
  pglite: PGlite,
  knex: Knex,
  options: { host?: string; port?: number } = {},
): Promise<PgliteServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveClient(socket, pglite, knex);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the PGlite server has no port');
  return {
    port: address.port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function serveClient(socket: Socket, pglite: PGlite, knex: Knex) {
  let pending = Buffer.alloc(0);
  let started = false;
  let closed = false;
  // The session, held from the startup message until the client leaves.
  let lease: Promise<unknown> | null = null;
  // One exchange at a time, in the order the bytes came.
  let queue: Promise<void> = Promise.resolve();

  const run = (message: Buffer) => {
    queue = queue.then(async () => {
      if (closed) return;
      const answer = await pglite.execProtocolRaw(new Uint8Array(message));
      if (answer.length && !socket.destroyed) socket.write(answer);
    });
    queue.catch(() => socket.destroy());
  };

  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (!started) {
      if (pending.length < 8) return;
      const length = pending.readInt32BE(0);
      if (pending.length < length) return;
      const code = pending.readInt32BE(4);
      const message = pending.subarray(0, length);
      pending = pending.subarray(length);
      if (length === 8 && (code === SSL_REQUEST || code === GSSENC_REQUEST)) {
        socket.write('N'); // no TLS on loopback: the client goes on in plain text
        continue;
      }
      if (code === CANCEL_REQUEST) return void socket.end();
      started = true;
      const connection = knex.client.acquireConnection();
      lease = connection;
      queue = connection.then(() => undefined);
      run(message);
    }
    // Whole messages only (type byte, then a length that counts itself), sent on together.
    let end = 0;
    let leaving = false;
    while (pending.length - end >= 5) {
      const length = pending.readInt32BE(end + 1);
      if (pending.length - end < 1 + length) break;
      if (pending[end] === TERMINATE) leaving = true;
      end += 1 + length;
    }
    if (end > 0) {
      const messages = pending.subarray(0, end);
      pending = pending.subarray(end);
      if (!leaving) run(messages);
    }
    if (leaving) socket.end();
  });

  const release = () => {
    if (closed) return;
    closed = true;
    if (!lease) return;
    const held = lease;
    void queue
      .catch(() => {})
      .then(async () => {
        const connection = await held;
        // What the client left behind must not reach the owner's session: an open transaction,
        // prepared statements, settings.
        await pglite.exec('rollback; deallocate all; reset all').catch(() => {});
        await knex.client.releaseConnection(connection);
      });
  };
  socket.on('close', release);
  socket.on('error', () => socket.destroy());
}
