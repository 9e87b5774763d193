import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Where the running API says which loopback port serves its embedded database to local tools
 * (the CLI): next to the directory and its lock, `$DATA_DIR/pglite.server.json`.
 */
const fileOf = (pgliteDir: string) => `${pgliteDir}.server.json`;

interface Record {
  pid: number;
  url: string;
}

/** Written once the API serves its database; the returned function removes it. */
export function recordEmbeddedServer(pgliteDir: string, port: number): () => void {
  const record: Record = { pid: process.pid, url: `postgres://postgres@127.0.0.1:${port}/postgres` };
  writeFileSync(fileOf(pgliteDir), `${JSON.stringify(record)}\n`);
  return () => rmSync(fileOf(pgliteDir), { force: true });
}

/** The URL the process `owner` (the lock's holder) serves its database on; null if it serves none. */
export function embeddedServerOf(pgliteDir: string, owner: number): string | null {
  try {
    const record = JSON.parse(readFileSync(fileOf(pgliteDir), 'utf8')) as Partial<Record>;
    return record.pid === owner && typeof record.url === 'string' ? record.url : null;
  } catch {
    return null;
  }
}
