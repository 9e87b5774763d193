import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Conventions of 0001: ids are text collate "C", timestamps timestamptz(3).
const UP = `
-- A sign-in of the first-party application. Only the SHA-256 of the cookie's secret is kept.
create table sessions (
  id text collate "C" primary key,
  secret_hash text not null,
  email text not null,
  created_at timestamptz(3) not null,
  last_seen_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  revoked_at timestamptz(3),
  constraint sessions_secret_hash_key unique (secret_hash)
);
create index sessions_expires_idx on sessions (expires_at);

-- The memberships (one per workspace) a session acts with. A removed member's sessions are
-- revoked first; the cascade only tidies the link.
create table session_members (
  session_id text collate "C" not null references sessions (id) on delete cascade,
  member_id text collate "C" not null references members (id) on delete cascade,
  primary key (session_id, member_id)
);
create index session_members_member_idx on session_members (member_id);

-- Login looks members up by e-mail across workspaces.
create index members_email_idx on members (lower(email));
create index members_workspace_created_idx on members (workspace_id, created_at desc, id desc);

-- The API-key settings list a workspace's live keys, newest first.
create index api_tokens_workspace_created_idx on api_tokens (workspace_id, created_at desc, id desc)
  where revoked_at is null;
`;

const DOWN = `
drop index api_tokens_workspace_created_idx;
drop index members_workspace_created_idx;
drop index members_email_idx;
drop table session_members;
drop table sessions;
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
