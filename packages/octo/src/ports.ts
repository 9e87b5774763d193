import type { ApiTokenStore, WorkspaceStore } from '@travelops/domain/access';
import type { BookingStores, ResellerBookingStore } from '@travelops/domain/bookings';
import type { ScheduleStore } from '@travelops/domain/catalog';
import type { PaymentProvider } from '@travelops/domain/payments';
import type { Clock, UnitOfWork } from '@travelops/domain/shared';

/** Every store the OCTO use cases touch: the booking use cases' and a few more. */
export type OctoStores = BookingStores & {
  resellerBookings: ResellerBookingStore;
  schedules: ScheduleStore;
  workspaces: WorkspaceStore;
  apiTokens: ApiTokenStore;
};

export interface OctoDeps {
  uow: UnitOfWork<OctoStores>;
  clock: Clock;
  payments: PaymentProvider;
}

/** Who sells: a reseller connection (an API token) of a workspace, and what it asked to see. */
export interface OctoCaller {
  workspaceId: string;
  connectionId: string;
  /** `octo/pricing` among the request's `Octo-Capabilities`: prices are added to the answers. */
  pricing: boolean;
}
