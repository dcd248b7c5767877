import { queryOptions, useQuery } from '@tanstack/react-query';
import { getClientInfo } from '../../api/cli';
import { listMyCredentials } from '../../api/credentials';
import { getMyProfile, listMyNotifications, listMySshKeys, listMyTokens } from '../../api/me';

/** Query-key factory for the profile page: everything under /api/v1/me, and the client at /api/v1/cli. */
export const meKeys = {
  all: ['me'] as const,
  profile: () => [...meKeys.all, 'profile'] as const,
  tokens: () => [...meKeys.all, 'tokens'] as const,
  sshKeys: () => [...meKeys.all, 'ssh-keys'] as const,
  credentials: () => [...meKeys.all, 'credentials'] as const,
  notifications: () => [...meKeys.all, 'notifications'] as const,
  client: () => [...meKeys.all, 'cli'] as const,
};

export const NOTIFICATION_POLL_MS = 30_000;

export const myProfileQuery = () => queryOptions({ queryKey: meKeys.profile(), queryFn: ({ signal }) => getMyProfile(signal) });

export const myTokensQuery = () => queryOptions({ queryKey: meKeys.tokens(), queryFn: ({ signal }) => listMyTokens(signal) });

export const mySshKeysQuery = () => queryOptions({ queryKey: meKeys.sshKeys(), queryFn: ({ signal }) => listMySshKeys(signal) });

export const myCredentialsQuery = () =>
  queryOptions({ queryKey: meKeys.credentials(), queryFn: ({ signal }) => listMyCredentials(signal) });

/** The command-line client this server hands out, and the lines that install it and sign in. */
export const clientInfoQuery = () => queryOptions({ queryKey: meKeys.client(), queryFn: ({ signal }) => getClientInfo(signal) });

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
