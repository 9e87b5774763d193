import type { Knex } from 'knex';

/**
 * The value stored under `name`, created by `create` when there is none yet. Insert-or-ignore
 * then read, so processes sharing a database agree on the first value written.
 */
export async function getOrCreateSecret(db: Knex, name: string, create: () => string): Promise<string> {
  const existing = await readSecret(db, name);
  if (existing !== null) return existing;
  await db('app_secrets').insert({ name, value: create() }).onConflict('name').ignore();
  const value = await readSecret(db, name);
  if (value === null) throw new Error(`Secret ${name} vanished right after it was written.`);
  return value;
}

async function readSecret(db: Knex, name: string): Promise<string | null> {
  const row: { value: string } | undefined = await db('app_secrets').select('value').where({ name }).first();
  return row?.value ?? null;
}
