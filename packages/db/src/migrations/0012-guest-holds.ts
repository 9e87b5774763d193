import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Holds that cannot be hoarded (issue "Take real money safely"): per-tour limits of the public
// channel, and an opaque key of the client that holds each unpaid public booking.
const UP = `
alter table tours add column max_seats_per_public_booking integer not null default 10;
alter table tours add column public_hold_minutes integer not null default 15;
alter table bookings add column holder_key text;
create index bookings_live_holds_idx on bookings (availability_id, holder_key, expires_at)
  where status = 'PENDING' and holder_key is not null
`;

const DOWN = `
drop index bookings_live_holds_idx;
alter table bookings drop column holder_key;
alter table tours drop column public_hold_minutes;
alter table tours drop column max_seats_per_public_booking
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
