// `pnpm start`: builds what the API needs (turbo; cached after the first time), saying so,
// then runs the API in this very process, so Ctrl-C reaches one process that ends with 0.
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApps } from './build-apps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`${line}\n`);

/** What the API needs: itself, the worker (README: on your own PostgreSQL), and the console's and
 * widget's files it serves (not its dependencies: built by name). */
const APPS = ['api', 'worker', 'console', 'widget'];

// Ctrl-C reaches turbo too (same process group): let it stop, then leave quietly.
let interrupted = false;
const onInterrupt = () => {
  interrupted = true;
};
process.on('SIGINT', onInterrupt);
process.on('SIGTERM', onInterrupt);

/**
 * A taken port is found before building, not minutes later: the same words the API uses. A PORT
 * or HOST it cannot read is left to the API, which names the variable.
 */
async function checkPort() {
  const port = Number(process.env.PORT ?? '3000');
  const host = process.env.HOST ?? '0.0.0.0';
  if (!Number.isInteger(port) || port < 1 || port > 65535) return;
  const problem = await new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error) => resolve(error.code));
    probe.listen(port, host, () => probe.close(() => resolve(null)));
  });
  if (problem === 'EADDRINUSE') {
    say(
      `\n  TravelOps API could not start. PORT: ${port} is in use on ${host} (another TravelOps?). Stop that process or start with another port, e.g. PORT=${port + 1}.\n`,
    );
    process.exit(1);
  }
}

await checkPort();
say('TravelOps: checking the build');
const result = await buildApps(root, APPS, {
  say,
  onFirst: () =>
    say(
      'TravelOps: building the API and the worker (the first start takes about 20 seconds; later starts reuse it)',
    ),
});
process.off('SIGINT', onInterrupt);
process.off('SIGTERM', onInterrupt);
if (interrupted) {
  say('TravelOps: stopped before the API started.');
  process.exit(0);
}
if (result.code !== 0) {
  process.stderr.write(result.log);
  say(`TravelOps: the build failed (turbo exited with ${result.code ?? result.signal}); see above.`);
  process.exit(1);
}
say('TravelOps: starting the API');
// Where the API finds what it just built (apps/api never imports another app); a value of the
// caller's own wins, and an empty one turns the console or the widget off.
process.env.CONSOLE_DIR ??= join(root, 'apps', 'console', 'dist');
process.env.WIDGET_SCRIPT ??= join(root, 'apps', 'widget', 'dist', 'widget.js');
await import(pathToFileURL(join(root, 'apps', 'api', 'dist', 'server.js')).href);
