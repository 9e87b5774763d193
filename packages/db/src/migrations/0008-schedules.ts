import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Schedules (issue "Sell the way operators sell", part 3): a deleted schedule is kept, CANCELLED,
// so the departures it made (and left, when booked) still name a schedule one can read.
const UP = `
alter table schedules add column status text not null default 'ACTIVE';
alter table schedules add column cancelled_at timestamptz(3);
alter table schedules add constraint schedules_status_check check (status in ('ACTIVE', 'CANCELLED'));
alter table schedules add constraint schedules_pattern_check
  check (cardinality(days_of_week) between 1 and 7 and cardinality(times) between 1 and 24)
`;

const DOWN = `
alter table schedules drop constraint schedules_pattern_check;
alter table schedules drop constraint schedules_status_check;
alter table schedules drop column cancelled_at;
alter table schedules drop column status
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
