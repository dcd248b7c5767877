import { infiniteQueryOptions } from '@tanstack/react-query';
import { listApprovals } from '../../api/approvals';
import type { ApprovalScope, ApprovalState } from '../../api/types';

/** Query-key factory for /api/v1/approvals. */
export const approvalKeys = {
  all: ['approvals'] as const,
  list: (scope: ApprovalScope, state: ApprovalState | '') => [...approvalKeys.all, 'list', { scope, state }] as const,
};

export const approvalListQuery = (scope: ApprovalScope, state: ApprovalState | '') =>
  infiniteQueryOptions({
    queryKey: approvalKeys.list(scope, state),
    queryFn: ({ signal, pageParam }) => listApprovals({ scope, state, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
