import { createContext, useContext } from 'react';
import { queryOptions } from '@tanstack/react-query';
import { getMe } from '../../api/auth';
import type { User } from '../../api/types';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

export const meQuery = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 5 * 60_000,
  });

export const CurrentUserContext = createContext<User | null>(null);

/** The signed-in user; only valid below RequireAuth. */
export function useCurrentUser(): User {
  const user = useContext(CurrentUserContext);
  if (user === null) throw new Error('useCurrentUser used outside of an authenticated route');
  return user;
}
