import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMyProfile, listMyNotifications, listMySshKeys, listMyTokens } from '../../api/me';

/** Query-key factory for everything under /api/v1/me. */
export const meKeys = {
  all: ['me'] as const,
  profile: () => [...meKeys.all, 'profile'] as const,
  tokens: () => [...meKeys.all, 'tokens'] as const,
  sshKeys: () => [...meKeys.all, 'ssh-keys'] as const,
  notifications: () => [...meKeys.all, 'notifications'] as const,
};

export const NOTIFICATION_POLL_MS = 30_000;

export const myProfileQuery = () =>
  queryOptions({ queryKey: meKeys.profile(), queryFn: ({ signal }) => getMyProfile(signal) });

export const myTokensQuery = () =>
  queryOptions({ queryKey: meKeys.tokens(), queryFn: ({ signal }) => listMyTokens(signal) });

export const mySshKeysQuery = () =>
  queryOptions({ queryKey: meKeys.sshKeys(), queryFn: ({ signal }) => listMySshKeys(signal) });

export const myNotificationsQuery = () =>
  queryOptions({
    queryKey: meKeys.notifications(),
    queryFn: ({ signal }) => listMyNotifications(signal),
    refetchInterval: NOTIFICATION_POLL_MS,
    staleTime: 0,
  });

export function useMyProfile() {
  return useQuery(myProfileQuery());
}
