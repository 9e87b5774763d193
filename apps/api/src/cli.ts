import { parseArgs } from 'node:util';
import { createUnitOfWork } from '@travelops/db';
import { type DomainError, ok, type Result } from '@travelops/domain/shared';
import { createJsonLogger } from '@travelops/logging';
import { memberCreate, tokenCreate, tokenRevoke, workspaceCreate, workspaceUpdate } from './cli/commands.js';
import { seedDemo } from './cli/seed.js';
import { openDatabase, systemClock } from './compose.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, lockDataDir } from './data-lock.js';
import { embeddedServerOf } from './embedded-server.js';

const USAGE = `Usage: npm run cli -- <command> [options] [--json]

Commands:
  workspace:create --slug S --name N
  workspace:update --workspace S [--name N] [--reply-to E|none] [--customer-retention-months M|off] [--two-factor-required NONE|ADMINS|ALL]
  member:create --workspace S --email E --password P --role READ_ONLY|OPERATIONS|ADMIN
  token:create --workspace S --role READ_ONLY|OPERATIONS|ADMIN|RESELLER --name N [--expires-in-days D]
  token:revoke --token-id T
  seed:demo
  migrate

--workspace takes a workspace slug or id. --name is also the sender name of guest e-mails;
--reply-to is where guests' replies to them go (none: nowhere); --customer-retention-months erases
customers M months after their last departure (off: kept). --json prints one JSON object on stdout.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  slug: { type: 'string' },
  name: { type: 'string' },
  workspace: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  role: { type: 'string' },
  'expires-in-days': { type: 'string' },
  'token-id': { type: 'string' },
  'reply-to': { type: 'string' },
  'customer-retention-months': { type: 'string' },
} as const;

type Command = (
  deps: Parameters<typeof workspaceCreate>[0],
  args: Record<string, string | undefined>,
) => Promise<Result<object>>;

const COMMANDS: Record<string, Command | 'migrate'> = {
  'workspace:create': workspaceCreate,
  'workspace:update': workspaceUpdate,
  'member:create': memberCreate,
  'token:create': tokenCreate,
  'token:revoke': tokenRevoke,
  'seed:demo': async (deps) => ok(await seedDemo(deps)),
  migrate: 'migrate',
};

function printError(error: DomainError, json: boolean) {
  if (json) console.log(JSON.stringify({ error }));
  else
    console.error(
      `error: ${error.message}${error.details ? ` (${error.details.map((d) => `${d.field}: ${d.issue}`).join(', ')})` : ''}`,
    );
}

function printResult(value: object, json: boolean) {
  if (json) return console.log(JSON.stringify(value));
  for (const [key, field] of Object.entries(value)) {
    console.log(`${key}: ${Array.isArray(field) ? field.join(', ') : String(field)}`);
  }
}

/**
 * The embedded database: opened here when no process owns it, else through the loopback port
 * the running API serves it on (decisions §11), so the CLI works beside the API.
 */
function embedded(pgliteDir: string): { unlock: () => void; served: string | undefined } {
  try {
    return { unlock: lockDataDir(pgliteDir), served: undefined };
  } catch (error) {
    const served =
      error instanceof DataDirInUseError && error.owner && embeddedServerOf(pgliteDir, error.owner);
    if (!served) throw error;
    return { unlock: () => {}, served };
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const json = values.json ?? false;
  const name = positionals[0];
  const command = name ? COMMANDS[name] : undefined;
  if (values.help || !command) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig(process.env);
  // Logs go to stderr so stdout carries only the command's output.
  const logger = createJsonLogger(process.stderr);
  const { unlock, served } = config.databaseUrl
    ? { unlock: () => {}, served: undefined }
    : embedded(config.pgliteDir);
  const { database, applied } = await openDatabase(config, logger, served);
  try {
    if (command === 'migrate') {
      printResult({ applied }, json);
      return 0;
    }
    const { json: _json, help: _help, ...args } = values;
    const result = await command({ uow: createUnitOfWork(database.knex), clock: systemClock }, args);
    if (!result.ok) {
      printError(result.error, json);
      return 1;
    }
    printResult(result.value, json);
    return 0;
  } finally {
    await database.close();
    unlock();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    console.error(`error: ${message}`);
    process.exitCode = 1;
  },
);
