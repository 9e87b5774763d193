import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Booking } from '../../queries';
import { useWorkspace } from '../../workspace';

/** Saves a changed booking: the answer replaces it, and the lists that show it reload. */
export function useBookingChange<T, R>(booking: Booking, send: (input: T) => Promise<R>) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'booking', booking.id] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'history', booking.id] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'bookings'] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'manifest'] });
    },
  });
}
