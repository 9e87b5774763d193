import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';

/** Debian's `pgbouncer` (`apt-get install pgbouncer`; .ci/run installs it). */
const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  port: number;
  /** `url` (a PostgreSQL URL of the test server) as reached through this PgBouncer. */
  through(url: string): string;
  /** PgBouncer's own version line (`PgBouncer 1.18.0`). */
  version: string;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode on a free port, in front of `server` (127.0.0.1:5432): every
 * database by its own name, trusted as PostgreSQL trusts the tests, and a pool of `poolSize`
 * server connections per database, so one client's transactions land on different ones. It
 * runs as a child of the test (as `postgres` when the test runs as root: PgBouncer refuses root).
 */
export async function startPgBouncer(
  options: { server?: { host: string; port: number }; poolSize?: number } = {},
): Promise<PgBouncer> {
  const server = options.server ?? { host: '127.0.0.1', port: 5432 };
  const version = execFileSync(PGBOUNCER, ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? '';
  const dir = await mkdtemp(join(tmpdir(), 'travelops-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  const userlist = join(dir, 'userlist.txt');
  await writeFile(userlist, '"postgres" ""\n');
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${server.host} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${userlist}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 500',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  // Readable by the user PgBouncer runs as.
  await chmod(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, exited, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    version,
    through(url: string) {
      const target = new URL(url);
      target.hostname = '127.0.0.1';
      target.port = String(port);
      return target.toString();
    },
    stop,
  };
}

async function waitForPort(port: number, exited: Promise<number | null>, output: () => string) {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let i = 0; i < 100; i++) {
    if (gone) throw new Error(`pgbouncer exited: ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`pgbouncer did not listen on ${port}: ${output()}`);
}
