/**
 * One line for the person at the terminal when the database of `DATABASE_URL` cannot be reached
 * or refuses the connection: what is wrong and what to do, naming the variable and never its
 * password. Null for any other error (a bug, which keeps its stack).
 */
export function describeConnectionError(error: unknown, url: string): string | null {
  const code = errorCode(error);
  if (!code) return null;
  const where = safeTarget(url);
  const reason = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ECONNREFUSED':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ECONNRESET':
      return `DATABASE_URL: no PostgreSQL answers at ${where.host} (${reason}). Start PostgreSQL there, correct DATABASE_URL, or unset it to use the embedded database.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DATABASE_URL: the host ${where.hostname} is unknown (${reason}). Correct the host in DATABASE_URL, or unset it to use the embedded database.`;
    // invalid_catalog_name
    case '3D000':
      return `DATABASE_URL: the database "${where.database}" does not exist on ${where.host}. Create it (createdb -h ${where.hostname} -p ${where.port} -U ${where.user} ${where.database}) or name an existing one in DATABASE_URL.`;
    // invalid_password, invalid_authorization_specification (an unknown role, no pg_hba entry)
    case '28P01':
    case '28000':
      return `DATABASE_URL: PostgreSQL at ${where.host} refused user "${where.user}" (${reason}). Correct the user or password in DATABASE_URL.`;
    default:
      return null;
  }
}

/** The driver's code: on the error, or on the first of an AggregateError's (several addresses). */
function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors) && errors.length) return errorCode(errors[0]);
  return null;
}

function safeTarget(url: string) {
  try {
    const parsed = new URL(url);
    const hostname = parsed.hostname || 'localhost';
    const port = parsed.port || '5432';
    return {
      hostname,
      port,
      host: `${hostname}:${port}`,
      user: decodeURIComponent(parsed.username) || 'postgres',
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres',
    };
  } catch {
    return {
      hostname: 'its host',
      port: '5432',
      host: 'its address',
      user: 'its user',
      database: 'its database',
    };
  }
}
