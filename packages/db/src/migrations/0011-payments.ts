import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// A real payment provider behind the port (issue 11, Stripe). Conventions of 0001: ids text
// collate "C", timestamps timestamptz(3). Numbered 0011 so the inventory issue's 0008-0010 can
// land in any order beside it.
const UP = `
-- The provider's checkout for a session (a Stripe Checkout Session id), reused while it is open.
alter table payment_sessions add column provider_reference text;

-- PAYMENT: the provider's payment (a PaymentIntent id), what a refund draws on. REFUND: the
-- provider's refund id, or ids separated by spaces when one refund drew on several payments.
alter table payments add column provider_reference text;
-- A provider's payment is recorded once, whichever of its webhooks tells of it first.
create unique index payments_provider_payment_key on payments (provider_reference)
  where kind = 'PAYMENT' and provider_reference is not null;

-- Webhook events handled, so a redelivered event is handled once. Written in the transaction
-- that acts on the event: an event whose handling rolled back is handled again on redelivery.
create table provider_events (
  provider text not null,
  event_id text collate "C" not null,
  type text not null,
  received_at timestamptz(3) not null default now(),
  primary key (provider, event_id)
)
`;

const DOWN = `
drop table provider_events;
drop index payments_provider_payment_key;
alter table payments drop column provider_reference;
alter table payment_sessions drop column provider_reference
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
