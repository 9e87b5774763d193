import type {
  Guide,
  GuidePatch,
  GuideStore,
  NewGuide,
  TimeOff,
  TimeOffStore,
} from '@travelops/domain/operations';
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
import { type DbTimestamp, guarded, pageNewestFirst, toColumns, toIso, utcDayStart } from './columns.js';
import { pageAscending } from './operations-columns.js';

interface GuideRow {
  id: string;
  email: string;
  is_guide: boolean;
  display_name: string;
  phone: string | null;
  languages: string[];
  certifications: string[];
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const GUIDE_COLUMNS = {
  isGuide: 'is_guide',
  displayName: 'display_name',
  phone: 'phone',
  languages: 'languages',
  certifications: 'certifications',
} as const satisfies { readonly [K in keyof Required<GuidePatch>]: string };

const ALREADY_GUIDE = {
  guide_profiles_pkey: conflict('This member already has a guide profile.', 'memberId', 'already_exists'),
};

const toGuide = (row: GuideRow): Guide => ({
  memberId: row.id,
  email: row.email,
  isGuide: row.is_guide,
  displayName: row.display_name,
  phone: row.phone,
  languages: row.languages,
  certifications: row.certifications,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export function createGuideStore(db: Knex | Knex.Transaction): GuideStore {
  // Guides are members with a profile: one row of both, `id` being the member's.
  const guides = (q: Knex = db) =>
    q
      .queryBuilder()
      .from(
        q('guide_profiles as g')
          .join('members as m', 'm.id', 'g.member_id')
          .select('g.*', 'm.id as id', 'm.email as email')
          .as('guides'),
      );

  async function findByMemberId(workspaceId: string, memberId: string): Promise<Guide | null> {
    const row = await guides().where({ workspace_id: workspaceId, id: memberId }).first();
    return row ? toGuide(row) : null;
  }

  return {
    findByMemberId,

    async insert(workspaceId: string, guide: NewGuide): Promise<Result<Guide>> {
      try {
        await guarded(db, (q) =>
          q('guide_profiles').insert({
            member_id: guide.memberId,
            workspace_id: workspaceId,
            ...toColumns<GuidePatch>(guide, GUIDE_COLUMNS),
          }),
        );
      } catch (error) {
        const known = constraintError(error, ALREADY_GUIDE);
        if (known) return fail(known);
        throw error;
      }
      return ok((await findByMemberId(workspaceId, guide.memberId)) as Guide);
    },

    async update(workspaceId: string, memberId: string, patch: GuidePatch): Promise<Guide | null> {
      const changes = toColumns(patch, GUIDE_COLUMNS);
      if (Object.keys(changes).length > 0) {
        await db('guide_profiles')
          .where({ workspace_id: workspaceId, member_id: memberId })
          .update({ ...changes, updated_at: db.fn.now() });
      }
      return findByMemberId(workspaceId, memberId);
    },

    async list(
      workspaceId: string,
      filter: { activeOnly: boolean },
      page: PageRequest,
    ): Promise<Page<Guide>> {
      const query = guides().where({ workspace_id: workspaceId });
      if (filter.activeOnly) query.where({ is_guide: true });
      const found = await pageNewestFirst(query, page, (row: GuideRow) => ({
        id: row.id,
        createdAt: toIso(row.created_at),
        guide: toGuide(row),
      }));
      return { ...found, items: found.items.map((item) => item.guide) };
    },
  };
}

interface TimeOffRow {
  id: string;
  workspace_id: string;
  member_id: string;
  starts_at: DbTimestamp;
  ends_at: DbTimestamp;
  reason: string | null;
  created_at: DbTimestamp;
}

const toTimeOff = (row: TimeOffRow): TimeOff => ({
  id: row.id,
  memberId: row.member_id,
  startsAt: toIso(row.starts_at),
  endsAt: toIso(row.ends_at),
  reason: row.reason,
  createdAt: toIso(row.created_at),
});

export function createTimeOffStore(db: Knex | Knex.Transaction): TimeOffStore {
  const periods = () => db<TimeOffRow>('guide_time_off');

  return {
    async insert(workspaceId: string, timeOff: Omit<TimeOff, 'createdAt'>): Promise<TimeOff> {
      const [row] = await periods()
        .insert({
          id: timeOff.id,
          workspace_id: workspaceId,
          member_id: timeOff.memberId,
          starts_at: timeOff.startsAt,
          ends_at: timeOff.endsAt,
          reason: timeOff.reason,
        })
        .returning('*');
      return toTimeOff(row as TimeOffRow);
    },

    list(workspaceId: string, memberId: string, range: DateRange, page: PageRequest): Promise<Page<TimeOff>> {
      const query = periods().where({ workspace_id: workspaceId, member_id: memberId });
      // Periods overlapping the days: starting before the end of `to`, ending after the start of `from`.
      if (range.to) query.where('starts_at', '<', utcDayStart(range.to, 1));
      if (range.from) query.where('ends_at', '>', utcDayStart(range.from));
      return pageAscending(query, 'starts_at', 'timestamp', page, toTimeOff, (off) => off.startsAt);
    },

    async findOverlapping(workspaceId: string, memberId: string, start: Date, end: Date): Promise<TimeOff[]> {
      const rows = await periods()
        .where({ workspace_id: workspaceId, member_id: memberId })
        .where('starts_at', '<', end)
        .where('ends_at', '>', start)
        .orderBy(['starts_at', 'id']);
      return rows.map(toTimeOff);
    },

    async delete(workspaceId: string, memberId: string, id: string): Promise<boolean> {
      const gone = await periods()
        .where({ workspace_id: workspaceId, member_id: memberId, id })
        .del()
        .returning('id');
      return gone.length > 0;
    },
  };
}
