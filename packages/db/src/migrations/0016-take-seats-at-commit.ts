import type { Knex } from 'knex';

// A booking's seats go with its COMMIT, in the same round trip (issue "Fast"): the conditional
// update the seat invariant rests on, raising when it takes nothing, so the commit cannot
// happen without the seats. SQLSTATE TS001 tells the unit of work to run the booking again.
const UP = `
create function travelops_take_seats(p_workspace text, p_departure text, p_count integer, p_version integer)
returns void language plpgsql as $body$
begin
  update availability
     set booked_seats = booked_seats + p_count, updated_at = now()
   where workspace_id = p_workspace and id = p_departure and version = p_version
     and booked_seats + p_count <= capacity;
  if not found then
    raise exception 'No % seats left on % at version %.', p_count, p_departure, p_version
      using errcode = 'TS001';
  end if;
end
$body$
`;

export const up = async (knex: Knex): Promise<void> => {
  await knex.raw(UP);
};

export const down = async (knex: Knex): Promise<void> => {
  await knex.raw('drop function travelops_take_seats(text, text, integer, integer)');
};
