import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// A booking validates its departure without a lock and takes its seats last, with one
// conditional update that also names the version it validated (issue "Fast"): every edit of a
// departure bumps it, seat changes do not, so an edit in between sends the booking round again.
const UP = `
alter table availability add column version integer not null default 1
`;

const DOWN = `
alter table availability drop column version
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
