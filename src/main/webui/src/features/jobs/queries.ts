import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { getJob, getJobConnect, getJobGpuUtilisation, getJobLogs, getJobManifests, getJobWait, listJobs } from '../../api/jobs';
import type { JobKind, JobState } from '../../api/types';
import { isFinished } from './jobState';

export const JOB_PAGE_SIZE = 50;
/** The list refreshes this often while any listed job has not finished (only while the event stream is down). */
export const JOB_LIST_POLL_MS = 5_000;
/** A job's page refreshes this often until the job has finished (while the event stream is down). */
export const JOB_DETAIL_POLL_MS = 3_000;
/**
 * While the event stream is live a running job's page still refreshes this often: the stream carries the
 * job's state, not its pods and Kubernetes events.
 */
export const JOB_DETAIL_LIVE_POLL_MS = 15_000;
/** Why a job waits refreshes this often while it waits (Queued, Admitted or Pending). */
export const JOB_WAIT_POLL_MS = 5_000;
/** A running job's accelerator utilisation (and idle decision) refreshes this often. */
export const GPU_UTILISATION_POLL_MS = 30_000;
/** Lines of log shown when not following. */
export const LOG_TAIL_LINES = 2_000;

/** The filters of the job list (part of its query key). */
export interface JobListFilter {
  /** '' = every account the caller may see (all of them for a platform admin). */
  account: string;
  state: JobState | '';
  kind: JobKind | '';
  /** Only the caller's own jobs. */
  mine: boolean;
  /** Username of the jobs' owner ('' or absent = anyone). */
  owner?: string;
  /** Accelerator model the jobs ask for ('' or absent = any). */
  model?: string;
}

/** Query-key factory for everything under /api/v1/jobs. */
export const jobKeys = {
  all: ['jobs'] as const,
  lists: () => [...jobKeys.all, 'list'] as const,
  list: (filter: JobListFilter) => [...jobKeys.lists(), filter] as const,
  details: () => [...jobKeys.all, 'detail'] as const,
  detail: (id: string) => [...jobKeys.details(), id] as const,
  // Under the detail key: whatever refreshes the job (its live events, a stop) refreshes this too.
  wait: (id: string) => [...jobKeys.detail(id), 'wait'] as const,
  // Under the detail key too: a change of state (it stops, a pod starts) changes the ways in.
  connect: (id: string) => [...jobKeys.detail(id), 'connect'] as const,
  // Apart: it refreshes on its own clock (GPU_UTILISATION_POLL_MS), not with every job event.
  gpu: (id: string) => [...jobKeys.all, 'gpu', id] as const,
  // Kept apart from the detail key so that refreshing a job does not reload its manifests or logs.
  manifests: (id: string) => [...jobKeys.all, 'manifests', id] as const,
  logs: (id: string, pod: string) => [...jobKeys.all, 'logs', id, pod] as const,
};

/** `poll`: refresh while any listed job is active (turned off while the event stream keeps the list current). */
export const jobListQuery = (filter: JobListFilter, poll = true) =>
  infiniteQueryOptions({
    queryKey: jobKeys.list(filter),
    queryFn: ({ signal, pageParam }) =>
      listJobs(
        {
          account: filter.account,
          state: filter.state,
          kind: filter.kind,
          mine: filter.mine,
          owner: filter.owner,
          model: filter.model,
          limit: JOB_PAGE_SIZE,
          cursor: pageParam,
        },
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => {
      if (!poll) return false;
      const pages = query.state.data?.pages ?? [];
      return pages.some((p) => p.items.some((j) => !isFinished(j.state))) ? JOB_LIST_POLL_MS : false;
    },
  });

/** `streamLive`: the job's event stream is open, so polling only picks up pods and events. */
export const jobQuery = (id: string, streamLive = false) =>
  queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: ({ signal }) => getJob(id, signal),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (query.state.status === 'error') return false;
      if (data && isFinished(data.job.state)) return false;
      return streamLive ? JOB_DETAIL_LIVE_POLL_MS : JOB_DETAIL_POLL_MS;
    },
  });

/** States in which a job waits to start. */
export const WAITING_STATES: readonly JobState[] = ['Queued', 'Admitted', 'Pending'];

export function isWaiting(state: JobState | string): boolean {
  return (WAITING_STATES as readonly string[]).includes(state);
}

/** Why the job waits; refreshed every JOB_WAIT_POLL_MS while it still waits. */
export const jobWaitQuery = (id: string) =>
  queryOptions({
    queryKey: jobKeys.wait(id),
    queryFn: ({ signal }) => getJobWait(id, signal),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (query.state.status === 'error') return false;
      return data === undefined || isWaiting(data.state) ? JOB_WAIT_POLL_MS : false;
    },
  });

export const jobManifestsQuery = (id: string) =>
  queryOptions({
    queryKey: jobKeys.manifests(id),
    queryFn: ({ signal }) => getJobManifests(id, signal),
    staleTime: 60_000,
  });

/** The last LOG_TAIL_LINES lines of a pod's log ('' = the job's main pod). */
export const jobLogsQuery = (id: string, pod: string) =>
  queryOptions({
    queryKey: jobKeys.logs(id, pod),
    queryFn: ({ signal }) => getJobLogs(id, { pod: pod || null, tailLines: LOG_TAIL_LINES }, signal),
  });

/** The terminal path and the ssh command and config of each running pod, and whether the caller may use them. */
export const jobConnectQuery = (id: string) =>
  queryOptions({
    queryKey: jobKeys.connect(id),
    queryFn: ({ signal }) => getJobConnect(id, signal),
  });

/** The accelerator utilisation over the idle window and the idle decision now; refreshed every 30 s. */
export const jobGpuQuery = (id: string) =>
  queryOptions({
    queryKey: jobKeys.gpu(id),
    queryFn: ({ signal }) => getJobGpuUtilisation(id, null, signal),
    refetchInterval: GPU_UTILISATION_POLL_MS,
  });
