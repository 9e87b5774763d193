import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { paths } from '@travelops/client';
import { ApiError, api, call, setCsrfToken } from './api';

export type Session = paths['/auth/session']['get']['responses'][200]['content']['application/json']['data'];

export const SESSION_KEY = ['session'] as const;

/**
 * A new session (or none): another member's data must not stay in the cache, but the
 * session query itself stays, so the components watching it see the change.
 */
export function replaceSession(queryClient: QueryClient, session: Session | null): void {
  setCsrfToken(session?.csrfToken);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  queryClient.setQueryData(SESSION_KEY, session);
}

/** The signed-in member (null when signed out); its CSRF token goes to the client's memory. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<Session | null> => {
      try {
        const session = (await call(api.GET('/auth/session'))).data;
        setCsrfToken(session.csrfToken);
        return session;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          setCsrfToken(undefined);
          return null;
        }
        throw error;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The password step. An e-mail with two-factor sign-in on gets `{ twoFactorRequired: true }`
 * and no session: the page then asks for a code (`useSecondFactor`).
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) =>
      (await call(api.POST('/auth/login', { body: credentials }))).data,
    onSuccess: (answer) => {
      if (!('twoFactorRequired' in answer)) replaceSession(queryClient, answer);
    },
  });
}

/** The second step: a code of the authenticator app, or a recovery code. */
export function useSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { code: string } | { recoveryCode: string }) =>
      (await call(api.POST('/auth/login/2fa', { body }))).data,
    onSuccess: (session) => replaceSession(queryClient, session),
  });
}

/** Enrolment: a pending secret, then a code of it turns two-factor sign-in on (the session is refreshed). */
export function useTwoFactorSetup() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: SESSION_KEY });
  return {
    enrol: useMutation({ mutationFn: async () => (await call(api.POST('/auth/2fa/enrol'))).data }),
    confirm: useMutation({
      mutationFn: async (code: string) =>
        (await call(api.POST('/auth/2fa/confirm', { body: { code } }))).data,
      onSuccess: refresh,
    }),
    disable: useMutation({
      mutationFn: async (code: string) =>
        (await call(api.POST('/auth/2fa/disable', { body: { code } }))).data,
      onSuccess: refresh,
    }),
  };
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => call(api.POST('/auth/logout')),
    onSettled: () => replaceSession(queryClient, null),
  });
}
