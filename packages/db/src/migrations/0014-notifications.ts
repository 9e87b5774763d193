import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// E-mails to guests (issue 17): the messages the worker writes and sends, the reminders' opt-outs,
// and the settings they read (a tour's reminder, a workspace's reply-to). Conventions of 0001.
const UP = `
alter table tours add column reminder_hours_before integer default 24
  constraint tours_reminder_hours_before_check check (reminder_hours_before between 1 and 168);
alter table workspaces add column reply_to_email text;

-- notification.email_requested events are turned into messages once: marked when done.
alter table outbox_events add column mailed_at timestamptz(3);
-- Requests written before this release (notifyCustomer) were never meant to go out now.
update outbox_events set mailed_at = now() where type = 'notification.email_requested';
create index outbox_events_unmailed_idx on outbox_events (seq)
  where mailed_at is null and type = 'notification.email_requested';

-- One row per message, its text final. (dedupe_key, recipient) is unique: the event id for
-- messages asked for by a change, the reminder's or hold warning's key for those the clock asks
-- for, so concurrent workers and redelivered events write each message once.
create table guest_emails (
  id text collate "C" primary key,
  seq bigint generated always as identity,
  workspace_id text collate "C" not null references workspaces (id),
  booking_id text collate "C" not null references bookings (id),
  kind text not null,
  dedupe_key text not null,
  recipient text not null,
  status text not null,
  from_name text not null,
  reply_to text,
  subject text not null,
  text_body text not null,
  html_body text not null,
  headers jsonb not null default '{}',
  attachments jsonb not null default '[]',
  attempts integer not null default 0,
  next_attempt_at timestamptz(3),
  locked_until timestamptz(3),
  last_attempt_at timestamptz(3),
  last_error text,
  sent_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  constraint guest_emails_seq_key unique (seq),
  constraint guest_emails_dedupe_key unique (dedupe_key, recipient),
  constraint guest_emails_status_check check (status in ('PENDING', 'SENT', 'FAILED', 'KEPT')),
  constraint guest_emails_attempts_check check (attempts >= 0)
);
-- The claim's scan: due PENDING messages only.
create index guest_emails_due_idx on guest_emails (next_attempt_at) where status = 'PENDING';
-- "Is an earlier message to this booking still PENDING?", and the candidates' "already written?".
create index guest_emails_booking_idx on guest_emails (booking_id, seq);
-- Attempts started in the last minute, per workspace (the rate).
create index guest_emails_attempted_idx on guest_emails (last_attempt_at) where last_attempt_at is not null;
create index guest_emails_created_idx on guest_emails (created_at desc, id desc);

-- Bookings whose guest followed a reminder's List-Unsubscribe.
create table guest_email_opt_outs (
  booking_id text collate "C" primary key references bookings (id),
  workspace_id text collate "C" not null references workspaces (id),
  created_at timestamptz(3) not null default now()
);

-- The reminder scan: confirmed bookings by start.
create index bookings_confirmed_starts_idx on bookings (starts_at) where status = 'CONFIRMED'
`;

const DOWN = `
drop index bookings_confirmed_starts_idx;
drop table guest_email_opt_outs;
drop table guest_emails;
drop index outbox_events_unmailed_idx;
alter table outbox_events drop column mailed_at;
alter table workspaces drop column reply_to_email;
alter table tours drop column reminder_hours_before
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
