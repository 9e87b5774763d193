import type { WorkspaceStore } from '../access/index.js';
import type { BookingStores, CreatedBooking, PublicBookingCreateInput } from '../bookings/index.js';
import {
  type BookingHolder,
  type CreateBookingDeps,
  createBooking,
  publicChannel,
} from '../bookings/index.js';
import type { UnitOfWork } from '../shared/ports.js';
import { fail, type Result } from '../shared/result.js';

export interface CreatePublicBookingDeps extends Omit<CreateBookingDeps, 'uow'> {
  uow: UnitOfWork<BookingStores & { workspaces: WorkspaceStore }>;
}

/**
 * A guest books in the workspace its widget names: published tours only, paid online, within
 * the tour's seats per booking and the client's unpaid holds per departure (`holder`).
 */
export async function createPublicBooking(
  deps: CreatePublicBookingDeps,
  workspaceSlug: string,
  input: PublicBookingCreateInput,
  holder?: BookingHolder,
  confirmationsPerRecipientPerHour: number | null = null,
): Promise<Result<CreatedBooking>> {
  const workspace = await deps.uow.stores.workspaces.findBySlug(workspaceSlug);
  if (!workspace) return fail({ code: 'NOT_FOUND', message: 'No such workspace.' });
  const ctx = { workspaceId: workspace.id, actor: { type: 'guest' as const, id: null } };
  return createBooking(deps, ctx, input, publicChannel(holder, confirmationsPerRecipientPerHour));
}
