import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { listApprovals } from '../../api/approvals';
import type { ApprovalScope, ApprovalState } from '../../api/types';

/** Query-key factory for /api/v1/approvals. */
export const approvalKeys = {
  all: ['approvals'] as const,
  list: (scope: ApprovalScope, state: ApprovalState | '') => [...approvalKeys.all, 'list', { scope, state }] as const,
  pendingReviews: () => [...approvalKeys.all, 'pending-reviews'] as const,
};

/** How often the bell looks for requests waiting for the caller's decision. */
export const PENDING_REVIEWS_POLL_MS = 30_000;

/**
 * Requests waiting for the caller's decision (as an account admin or platform admin): their number on the
 * first page, and whether there are more. Empty for someone who reviews nothing.
 */
export const pendingReviewsQuery = () =>
  queryOptions({
    queryKey: approvalKeys.pendingReviews(),
    queryFn: async ({ signal }) => {
      const page = await listApprovals({ scope: 'review', state: 'pending' }, signal);
      return { count: page.items.length, more: page.nextCursor !== null && page.nextCursor !== undefined };
    },
    refetchInterval: PENDING_REVIEWS_POLL_MS,
  });

export const approvalListQuery = (scope: ApprovalScope, state: ApprovalState | '') =>
  infiniteQueryOptions({
    queryKey: approvalKeys.list(scope, state),
    queryFn: ({ signal, pageParam }) => listApprovals({ scope, state, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
