import type { Knex } from 'knex';

// Who handed a payment page out (issue 23): a page the guest opened (widget, guest page) returns
// them to their booking page; an operator's payment link, payable by anyone it is sent to, shows
// the payment's state only. Pages opened before this column existed count as the operator's:
// the safe side (their return page no longer links the booking's guest page).
export const up = async (knex: Knex): Promise<void> => {
  await knex.schema.alterTable('payment_sessions', (table) => {
    table.text('opened_by').notNullable().defaultTo('operator');
  });
};

export const down = async (knex: Knex): Promise<void> => {
  await knex.schema.alterTable('payment_sessions', (table) => {
    table.dropColumn('opened_by');
  });
};
