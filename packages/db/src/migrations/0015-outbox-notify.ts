import type { Knex } from 'knex';

// Wakes the delivery workers (issue 15): every statement that appends to the outbox also queues
// a NOTIFY on travelops_outbox, which PostgreSQL (and PGlite) deliver when the transaction
// commits and drop when it rolls back, so a worker is never woken before the events are
// visible. Identical notifications of one transaction are folded into one. The listener is
// `listenForOutbox` (src/outbox-listener.ts); the poll stays as the safety net.
// Two statements run one by one: the function's body holds semicolons (see run-each.ts).
const CREATE_FUNCTION = `
create function travelops_notify_outbox() returns trigger language plpgsql as $$
begin
  perform pg_notify('travelops_outbox', '');
  return null;
end
$$`;

const CREATE_TRIGGER = `
create trigger outbox_events_notify after insert on outbox_events
  for each statement execute function travelops_notify_outbox()`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(CREATE_FUNCTION);
  await knex.raw(CREATE_TRIGGER);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger outbox_events_notify on outbox_events');
  await knex.raw('drop function travelops_notify_outbox()');
}
