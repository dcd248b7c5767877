import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  getAccount,
  getAccountFeatures,
  getDefaultLimits,
  getMemberLimits,
  getTimeLimits,
  listAccounts,
  listMembers,
} from '../../api/accounts';

export const ACCOUNT_PAGE_SIZE = 50;

/** Query-key factory for everything under /api/v1/accounts. */
export const accountKeys = {
  all: ['accounts'] as const,
  lists: () => [...accountKeys.all, 'list'] as const,
  list: (q: string) => [...accountKeys.lists(), { q }] as const,
  detail: (slug: string) => [...accountKeys.all, 'detail', slug] as const,
  members: (slug: string) => [...accountKeys.detail(slug), 'members'] as const,
  defaultLimits: (slug: string) => [...accountKeys.detail(slug), 'limits'] as const,
  memberLimits: (slug: string, username: string) => [...accountKeys.members(slug), username, 'limits'] as const,
  timeLimits: (slug: string) => [...accountKeys.detail(slug), 'time-limits'] as const,
  features: (slug: string) => [...accountKeys.detail(slug), 'features'] as const,
};

export const accountListQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: accountKeys.list(q),
    queryFn: ({ signal, pageParam }) => listAccounts({ q, limit: ACCOUNT_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const accountQuery = (slug: string) =>
  queryOptions({ queryKey: accountKeys.detail(slug), queryFn: ({ signal }) => getAccount(slug, signal) });

export const membersQuery = (slug: string) =>
  queryOptions({ queryKey: accountKeys.members(slug), queryFn: ({ signal }) => listMembers(slug, signal) });

export const defaultLimitsQuery = (slug: string) =>
  queryOptions({ queryKey: accountKeys.defaultLimits(slug), queryFn: ({ signal }) => getDefaultLimits(slug, signal) });

export const timeLimitsQuery = (slug: string) =>
  queryOptions({ queryKey: accountKeys.timeLimits(slug), queryFn: ({ signal }) => getTimeLimits(slug, signal) });

export const memberLimitsQuery = (slug: string, username: string) =>
  queryOptions({
    queryKey: accountKeys.memberLimits(slug, username),
    queryFn: ({ signal }) => getMemberLimits(slug, username, signal),
  });

/** The account default (username null) or one member's override. */
export const limitsQuery = (slug: string, username: string | null) =>
  queryOptions({
    queryKey: (username === null ? accountKeys.defaultLimits(slug) : accountKeys.memberLimits(slug, username)) as readonly unknown[],
    queryFn: ({ signal }) => (username === null ? getDefaultLimits(slug, signal) : getMemberLimits(slug, username, signal)),
  });

export const featuresQuery = (slug: string) =>
  queryOptions({ queryKey: accountKeys.features(slug), queryFn: ({ signal }) => getAccountFeatures(slug, signal) });
