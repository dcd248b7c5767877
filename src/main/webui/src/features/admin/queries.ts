import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { getDirectory } from '../../api/directory';
import { listAudit, listDenied } from '../../api/audit';
import type { AuditFilter } from '../../api/types';
import { listUsers } from '../../api/users';

export const USER_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE = 50;

/** Query-key factory for /api/v1/users. */
export const userKeys = {
  all: ['users'] as const,
  list: (q: string) => [...userKeys.all, 'list', { q }] as const,
};

/** Query-key factory for /api/v1/directory. */
export const directoryKeys = {
  all: ['directory'] as const,
  status: () => [...directoryKeys.all, 'status'] as const,
};

export const directoryQuery = () =>
  queryOptions({
    queryKey: directoryKeys.status(),
    queryFn: ({ signal }) => getDirectory(signal),
  });

/** Query-key factory for /api/v1/audit. */
export const auditKeys = {
  all: ['audit'] as const,
  log: (filter: AuditFilter) => [...auditKeys.all, 'log', filter] as const,
  denied: () => [...auditKeys.all, 'denied'] as const,
};

export const userListQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: userKeys.list(q),
    queryFn: ({ signal, pageParam }) => listUsers({ q, limit: USER_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const auditQuery = (filter: AuditFilter) =>
  infiniteQueryOptions({
    queryKey: auditKeys.log(filter),
    queryFn: ({ signal, pageParam }) => listAudit({ ...filter, limit: AUDIT_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const deniedQuery = () =>
  infiniteQueryOptions({
    queryKey: auditKeys.denied(),
    queryFn: ({ signal, pageParam }) => listDenied({ cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
