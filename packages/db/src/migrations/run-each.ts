import type { Knex } from 'knex';

/** Runs a script statement by statement: PGlite runs each raw query as a prepared statement, which holds one command only. */
export async function runEach(knex: Knex, script: string): Promise<void> {
  for (const statement of script.split(/;\s*$/m)) {
    if (statement.trim()) await knex.raw(statement);
  }
}
