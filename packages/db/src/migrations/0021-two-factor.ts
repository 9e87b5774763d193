import type { Knex } from 'knex';

// Staff two-factor sign-in (issue 31): one TOTP secret per e-mail (a session is an e-mail's, over
// its memberships), its recovery codes as SHA-256 hashes, the last time step used (a code works
// once); whether a session passed the second factor; what a workspace requires.
export const up = async (knex: Knex): Promise<void> => {
  await knex.raw(`create table two_factor (
    email text primary key check (email = lower(email)),
    secret text,
    pending_secret text,
    enabled_at timestamptz,
    last_step bigint not null default 0,
    recovery_code_hashes text[] not null default '{}',
    check ((enabled_at is null) = (secret is null))
  )`);
  await knex.raw('alter table sessions add column two_factor_at timestamptz');
  await knex.raw(`alter table workspaces add column two_factor_required text not null default 'NONE'
    check (two_factor_required in ('NONE', 'ADMINS', 'ALL'))`);
};

export const down = async (knex: Knex): Promise<void> => {
  await knex.raw('alter table workspaces drop column two_factor_required');
  await knex.raw('alter table sessions drop column two_factor_at');
  await knex.raw('drop table two_factor');
};
