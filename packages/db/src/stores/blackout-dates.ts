import type { BlackoutDate, BlackoutDateStore } from '@travelops/domain/operations';
import {
  conflict,
  type DateRange,
  fail,
  ok,
  type Page,
  type PageRequest,
  type Result,
} from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import { type DbTimestamp, guarded, toIso } from './columns.js';
import { pageAscending, toDay } from './operations-columns.js';

interface BlackoutRow {
  id: string;
  tour_id: string | null;
  day: string;
  reason: string | null;
  created_at: DbTimestamp;
}

const DAY_TAKEN = {
  blackout_dates_scope_date_key: conflict(
    'This day is already a blackout date for that scope.',
    'date',
    'already_exists',
  ),
};

const toBlackout = (row: BlackoutRow): BlackoutDate => ({
  id: row.id,
  tourId: row.tour_id,
  date: toDay(row.day),
  reason: row.reason,
  createdAt: toIso(row.created_at),
});

export function createBlackoutDateStore(db: Knex | Knex.Transaction): BlackoutDateStore {
  const select = (q: Knex = db) =>
    q('blackout_dates').select('id', 'tour_id', 'reason', 'created_at', q.raw('date::text as day'));

  function scoped(workspaceId: string, filter: DateRange & { tourId?: string }) {
    const query = select().where({ workspace_id: workspaceId });
    if (filter.tourId) {
      const tourId = filter.tourId;
      query.where((scope) => scope.whereNull('tour_id').orWhere('tour_id', tourId));
    }
    if (filter.from) query.where('date', '>=', filter.from);
    if (filter.to) query.where('date', '<=', filter.to);
    return query;
  }

  return {
    async insert(
      workspaceId: string,
      blackout: Omit<BlackoutDate, 'createdAt'>,
    ): Promise<Result<BlackoutDate>> {
      try {
        const [row] = await guarded(db, async (q) => {
          await q('blackout_dates').insert({
            id: blackout.id,
            workspace_id: workspaceId,
            tour_id: blackout.tourId,
            date: blackout.date,
            reason: blackout.reason,
          });
          return select(q).where({ id: blackout.id });
        });
        return ok(toBlackout(row as BlackoutRow));
      } catch (error) {
        const known = constraintError(error, DAY_TAKEN);
        if (known) return fail(known);
        throw error;
      }
    },

    list(workspaceId: string, filter, page: PageRequest): Promise<Page<BlackoutDate>> {
      return pageAscending(scoped(workspaceId, filter), 'date', 'date', page, toBlackout, (b) => b.date);
    },

    async listApplying(workspaceId: string, tourId: string, range: DateRange): Promise<BlackoutDate[]> {
      const rows = await scoped(workspaceId, { ...range, tourId }).orderBy(['date', 'id']);
      return rows.map(toBlackout);
    },

    async listOnDays(workspaceId: string, days: readonly string[]): Promise<BlackoutDate[]> {
      if (days.length === 0) return [];
      const rows = await select()
        .where({ workspace_id: workspaceId })
        .whereIn('date', [...days])
        .orderBy(['date', 'id']);
      return rows.map(toBlackout);
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await db('blackout_dates').where({ workspace_id: workspaceId, id }).del().returning('id');
      return gone.length > 0;
    },
  };
}
