/** The words of a booking's status on its page, and where each status may go. */
import type { Booking } from '../../queries';

export type Status = Booking['status'];
/** Decisions §2: where each status may go (the server checks it again, with the clock). */
export const NEXT: Record<Status, Status[]> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['CANCELLED', 'COMPLETED', 'NO_SHOW'],
  CANCELLED: [],
  COMPLETED: [],
  NO_SHOW: [],
};
export const words = (value: string) => value.charAt(0) + value.slice(1).toLowerCase().replaceAll('_', ' ');
