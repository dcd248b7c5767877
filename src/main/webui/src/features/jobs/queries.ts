import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { getJob, listJobs } from '../../api/jobs';
import type { JobState } from '../../api/types';
import { isFinished } from './jobState';

export const JOB_PAGE_SIZE = 50;
/** The list refreshes this often while any listed job has not finished. */
export const JOB_LIST_POLL_MS = 5_000;
/** A job's page refreshes this often until the job has finished. */
export const JOB_DETAIL_POLL_MS = 3_000;

/** Query-key factory for everything under /api/v1/jobs. */
export const jobKeys = {
  all: ['jobs'] as const,
  lists: () => [...jobKeys.all, 'list'] as const,
  list: (account: string, state: JobState | '') => [...jobKeys.lists(), { account, state }] as const,
  details: () => [...jobKeys.all, 'detail'] as const,
  detail: (id: string) => [...jobKeys.details(), id] as const,
};

export const jobListQuery = (account: string, state: JobState | '') =>
  infiniteQueryOptions({
    queryKey: jobKeys.list(account, state),
    queryFn: ({ signal, pageParam }) => listJobs({ account, state, limit: JOB_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => {
      const pages = query.state.data?.pages ?? [];
      return pages.some((p) => p.items.some((j) => !isFinished(j.state))) ? JOB_LIST_POLL_MS : false;
    },
  });

export const jobQuery = (id: string) =>
  queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: ({ signal }) => getJob(id, signal),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (query.state.status === 'error') return false;
      return data && isFinished(data.job.state) ? false : JOB_DETAIL_POLL_MS;
    },
  });
