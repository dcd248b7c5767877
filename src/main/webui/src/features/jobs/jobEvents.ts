import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { JobDetail, JobSummary, Page } from '../../api/types';
import { jobKeys, type JobListFilter } from './queries';

/** What a job list query caches: the pages loaded so far. */
export type JobListData = InfiniteData<Page<JobSummary>, string | null>;

/** One cached job list: its key and its data (undefined while its first page loads). */
export interface CachedJobList {
  key: QueryKey;
  data: JobListData | undefined;
}

/** How one job event changes the cached lists. */
export interface JobEventPlan {
  /** Lists that show the job: their data with the job replaced. */
  updates: { key: QueryKey; data: JobListData }[];
  /** Lists to fetch again: the job left their filter, or it should now appear in them. */
  refetch: QueryKey[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses the data of a `job` event (a JobSummary); null for anything malformed. */
export function parseJobEvent(data: string): JobSummary | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  for (const field of ['id', 'name', 'state', 'account'] as const) {
    if (typeof value[field] !== 'string') return null;
  }
  return value as unknown as JobSummary;
}

/** The filter in a list key (`[...jobKeys.lists(), filter]`), or null for any other key. */
export function listFilterOf(key: QueryKey): JobListFilter | null {
  const filter = key[jobKeys.lists().length];
  if (!isRecord(filter) || typeof filter['account'] !== 'string') return null;
  return filter as unknown as JobListFilter;
}

/** Whether a list with this filter may show the job (whose owner the filter `mine` cannot check: assumed yes). */
export function listMayShow(filter: JobListFilter, job: JobSummary): boolean {
  return (
    (filter.account === '' || filter.account === job.account) &&
    (!filter.state || filter.state === job.state) &&
    (!filter.kind || filter.kind === job.kind) &&
    (!filter.owner || filter.owner === job.owner) &&
    (!filter.model || job.requests[filter.model] !== undefined)
  );
}

/** The pages with the job of the same id replaced; the same object when the job is not among them. */
export function replaceJob(data: JobListData | undefined, job: JobSummary): JobListData | undefined {
  if (data === undefined) return undefined;
  let found = false;
  const pages = data.pages.map((page) => {
    const index = page.items.findIndex((j) => j.id === job.id);
    if (index === -1) return page;
    found = true;
    const items = page.items.slice();
    items[index] = job;
    return { ...page, items };
  });
  return found ? { ...data, pages } : data;
}

/** The pages without the job of that id (after it was deleted); the same object when it is not among them. */
export function removeJob(data: JobListData | undefined, id: string): JobListData | undefined {
  if (data === undefined || !data.pages.some((p) => p.items.some((j) => j.id === id))) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((j) => j.id !== id) })) };
}

/**
 * Whether the job falls within the part of the list loaded so far (newest first): the whole list is loaded,
 * or the job is not older than the oldest loaded one. A job further down would only appear after "Load more".
 */
function withinLoaded(data: JobListData, job: JobSummary): boolean {
  const last = data.pages[data.pages.length - 1];
  if (last === undefined || last.nextCursor === null) return true;
  const oldest = data.pages.flatMap((p) => p.items).at(-1);
  if (oldest === undefined) return true;
  const created = Date.parse(job.createdAt);
  const limit = Date.parse(oldest.createdAt);
  return Number.isNaN(created) || Number.isNaN(limit) || created >= limit;
}

/**
 * Works out how a `job` event changes the cached lists: a list that shows the job gets it replaced in place
 * (and is fetched again when the job no longer matches its filter); a list that does not show it but may
 * (a new job, or one whose state now matches the filter) is fetched again. Lists not loaded yet are left alone.
 */
export function planJobEvent(lists: readonly CachedJobList[], job: JobSummary): JobEventPlan {
  const plan: JobEventPlan = { updates: [], refetch: [] };
  for (const { key, data } of lists) {
    if (data === undefined) continue;
    const filter = listFilterOf(key);
    const replaced = replaceJob(data, job);
    if (replaced !== data && replaced !== undefined) {
      plan.updates.push({ key, data: replaced });
      if (filter !== null && !listMayShow(filter, job)) plan.refetch.push(key);
    } else if (filter === null || (listMayShow(filter, job) && withinLoaded(data, job))) {
      plan.refetch.push(key);
    }
  }
  return plan;
}

/** The cached detail with the job's summary replaced (pods and events come with the next fetch). */
export function applyJobToDetail(detail: JobDetail | undefined, job: JobSummary): JobDetail | undefined {
  if (detail === undefined || detail.job.id !== job.id) return detail;
  return { ...detail, job };
}

/** Applies one `job` event to the query cache (lists and the job's detail); returns the list plan it carried out. */
export function applyJobEvent(client: QueryClient, job: JobSummary): JobEventPlan {
  const lists = client.getQueriesData<JobListData>({ queryKey: jobKeys.lists() }).map(([key, data]): CachedJobList => ({ key, data }));
  const plan = planJobEvent(lists, job);
  for (const { key, data } of plan.updates) client.setQueryData<JobListData>(key, data);
  for (const key of plan.refetch) void client.invalidateQueries({ queryKey: key, exact: true });

  const detailKey = jobKeys.detail(job.id);
  if (client.getQueryData<JobDetail>(detailKey) !== undefined) {
    client.setQueryData<JobDetail>(detailKey, (old) => applyJobToDetail(old, job));
    // The event carries the summary only: fetch the pods and events again, and why it waits (under the detail key).
    void client.invalidateQueries({ queryKey: detailKey });
  }
  return plan;
}

/** Applies a `job-deleted` event: the job leaves every cached list, and its detail (with what hangs under it) is dropped. */
export function applyJobDeleted(client: QueryClient, id: string): void {
  client.setQueriesData<JobListData>({ queryKey: jobKeys.lists() }, (data) => removeJob(data, id));
  client.removeQueries({ queryKey: jobKeys.detail(id) });
}
