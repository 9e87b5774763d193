import type {
  ItineraryItem,
  ItineraryItemPatch,
  ItineraryPatch,
  ItineraryRecord,
  ItineraryStore,
  NewItinerary,
  NewItineraryItem,
} from '@travelops/domain/operations';
import type { DateRange, Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { type DbTimestamp, toColumns, toIso, toIsoOrNull } from './columns.js';
import { pageAscending, toDay } from './operations-columns.js';

interface ItineraryRow {
  id: string;
  workspace_id: string;
  customer_id: string;
  title: string;
  starts_day: string;
  ends_day: string;
  notes: string | null;
  public_token: string;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

interface ItemRow {
  id: string;
  workspace_id: string;
  itinerary_id: string;
  type: ItineraryItem['type'];
  title: string;
  starts_at: DbTimestamp;
  ends_at: DbTimestamp | null;
  location: string | null;
  description: string | null;
  operator_notes: string | null;
  booking_id: string | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const ITINERARY_COLUMNS = {
  title: 'title',
  startsOn: 'starts_on',
  endsOn: 'ends_on',
  notes: 'notes',
} as const satisfies { readonly [K in keyof Required<ItineraryPatch>]: string };

const ITEM_COLUMNS = {
  type: 'type',
  title: 'title',
  startsAt: 'starts_at',
  endsAt: 'ends_at',
  location: 'location',
  description: 'description',
  operatorNotes: 'operator_notes',
  bookingId: 'booking_id',
} as const satisfies { readonly [K in keyof Required<ItineraryItemPatch>]: string };

const toItinerary = (row: ItineraryRow): ItineraryRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  customerId: row.customer_id,
  title: row.title,
  startsOn: toDay(row.starts_day),
  endsOn: toDay(row.ends_day),
  notes: row.notes,
  publicToken: row.public_token,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

const toItem = (row: ItemRow): ItineraryItem => ({
  id: row.id,
  itineraryId: row.itinerary_id,
  type: row.type,
  title: row.title,
  startsAt: toIso(row.starts_at),
  endsAt: toIsoOrNull(row.ends_at),
  location: row.location,
  description: row.description,
  operatorNotes: row.operator_notes,
  bookingId: row.booking_id,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export function createItineraryStore(db: Knex | Knex.Transaction): ItineraryStore {
  const itineraries = () =>
    db('itineraries').select(
      '*',
      db.raw('starts_on::text as starts_day'),
      db.raw('ends_on::text as ends_day'),
    );
  const items = () => db<ItemRow>('itinerary_items');

  async function findById(workspaceId: string, id: string): Promise<ItineraryRecord | null> {
    const row = await itineraries().where({ workspace_id: workspaceId, id }).first();
    return row ? toItinerary(row) : null;
  }

  async function findItem(workspaceId: string, itineraryId: string, id: string) {
    const row = await items().where({ workspace_id: workspaceId, itinerary_id: itineraryId, id }).first();
    return row ? toItem(row) : null;
  }

  return {
    findById,
    findItem,

    async insert(itinerary: NewItinerary): Promise<ItineraryRecord> {
      await db('itineraries').insert({
        id: itinerary.id,
        workspace_id: itinerary.workspaceId,
        customer_id: itinerary.customerId,
        public_token: itinerary.publicToken,
        ...toColumns<ItineraryPatch>(itinerary, ITINERARY_COLUMNS),
      });
      return (await findById(itinerary.workspaceId, itinerary.id)) as ItineraryRecord;
    },

    async findByPublicToken(publicToken: string): Promise<ItineraryRecord | null> {
      const row = await itineraries().where({ public_token: publicToken }).first();
      return row ? toItinerary(row) : null;
    },

    async update(workspaceId: string, id: string, patch: ItineraryPatch): Promise<ItineraryRecord | null> {
      await db('itineraries')
        .where({ workspace_id: workspaceId, id })
        .update({ ...toColumns(patch, ITINERARY_COLUMNS), updated_at: db.fn.now() });
      return findById(workspaceId, id);
    },

    list(
      workspaceId: string,
      filter: DateRange & { customerId?: string },
      page: PageRequest,
    ): Promise<Page<ItineraryRecord>> {
      const query = itineraries().where({ workspace_id: workspaceId });
      if (filter.customerId) query.where({ customer_id: filter.customerId });
      // Trips overlapping the days.
      if (filter.from) query.where('ends_on', '>=', filter.from);
      if (filter.to) query.where('starts_on', '<=', filter.to);
      return pageAscending(query, 'starts_on', 'date', page, toItinerary, (trip) => trip.startsOn);
    },

    async insertItem(workspaceId: string, item: NewItineraryItem): Promise<ItineraryItem> {
      const [row] = await items()
        .insert({
          id: item.id,
          workspace_id: workspaceId,
          itinerary_id: item.itineraryId,
          ...toColumns<ItineraryItemPatch>(item, ITEM_COLUMNS),
        })
        .returning('*');
      return toItem(row as ItemRow);
    },

    async updateItem(
      workspaceId: string,
      itineraryId: string,
      id: string,
      patch: ItineraryItemPatch,
    ): Promise<ItineraryItem | null> {
      const [row] = await items()
        .where({ workspace_id: workspaceId, itinerary_id: itineraryId, id })
        .update({ ...toColumns(patch, ITEM_COLUMNS), updated_at: db.fn.now() })
        .returning('*');
      return row ? toItem(row as ItemRow) : null;
    },

    async deleteItem(workspaceId: string, itineraryId: string, id: string): Promise<boolean> {
      const gone = await items()
        .where({ workspace_id: workspaceId, itinerary_id: itineraryId, id })
        .del()
        .returning('id');
      return gone.length > 0;
    },

    async listItems(workspaceId: string, itineraryId: string): Promise<ItineraryItem[]> {
      const rows = await items()
        .where({ workspace_id: workspaceId, itinerary_id: itineraryId })
        .orderBy(['starts_at', 'created_at', 'id']);
      return rows.map(toItem);
    },
  };
}
