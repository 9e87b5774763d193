import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Cancellation policy (issue "Sell the way operators sell", part 5): a booking keeps the
// policy its guest agreed to, so a later edit of the tour's policy changes no booking made
// before it. Bookings made before this migration take their tour's policy as it is now (the
// best record of what applied; until now no policy was enforced).
const UP = `
alter table bookings add column cancellation_policy jsonb;
update bookings b set cancellation_policy = t.cancellation_policy from tours t
  where t.workspace_id = b.workspace_id and t.id = b.tour_id;
alter table bookings alter column cancellation_policy set not null
`;

const DOWN = `
alter table bookings drop column cancellation_policy
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
