import type { Knex } from 'knex';

// A guest's words are the guest's (issue 23): a public booking's `notes` go here, never into
// the operator's internal `notes`.
export const up = async (knex: Knex): Promise<void> => {
  await knex.schema.alterTable('bookings', (table) => {
    table.text('guest_message').nullable();
  });
};

export const down = async (knex: Knex): Promise<void> => {
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('guest_message');
  });
};
