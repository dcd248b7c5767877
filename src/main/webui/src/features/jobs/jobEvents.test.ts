import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { JobDetail, JobSummary } from '../../api/types';
import { makeDetail, makeJob } from '../../test/jobFixtures';
import {
  applyJobDeleted,
  applyJobEvent,
  applyJobToDetail,
  listFilterOf,
  parseJobEvent,
  planJobEvent,
  removeJob,
  replaceJob,
  type CachedJobList,
  type JobListData,
} from './jobEvents';
import { jobKeys, type JobListFilter } from './queries';

function pages(...chunks: { items: JobSummary[]; nextCursor?: string | null }[]): JobListData {
  return {
    pages: chunks.map((c) => ({ items: c.items, nextCursor: c.nextCursor ?? null })),
    pageParams: chunks.map((_, i) => (i === 0 ? null : `c${i}`)),
  };
}

function filter(overrides: Partial<JobListFilter> = {}): JobListFilter {
  return { account: 'vision-lab', state: '', kind: '', mine: false, ...overrides };
}

function list(f: JobListFilter, data: JobListData | undefined): CachedJobList {
  return { key: jobKeys.list(f), data };
}

const a = makeJob('a', { createdAt: '2025-03-03T00:00:00Z' });
const b = makeJob('b', { createdAt: '2025-03-02T00:00:00Z' });
const c = makeJob('c', { createdAt: '2025-03-01T00:00:00Z' });

describe('replaceJob', () => {
  it('replaces the job in place and keeps the other pages and items', () => {
    const before = pages({ items: [a, b], nextCursor: 'x' }, { items: [c] });
    const snapshot = structuredClone(before);
    const changed = makeJob('c', { state: 'Succeeded' });
    const after = replaceJob(before, changed);
    expect(after?.pages[1]?.items[0]).toBe(changed);
    expect(after?.pages[0]).toBe(before.pages[0]);
    expect(after?.pageParams).toBe(before.pageParams);
    expect(before).toEqual(snapshot);
  });

  it('returns the same data when the job is not listed', () => {
    const before = pages({ items: [a] });
    expect(replaceJob(before, makeJob('zz'))).toBe(before);
    expect(replaceJob(undefined, a)).toBeUndefined();
  });
});

describe('removeJob', () => {
  it('drops the job from every page', () => {
    const before = pages({ items: [a, b], nextCursor: 'x' }, { items: [c] });
    expect(removeJob(before, 'b')?.pages.map((p) => p.items.map((j) => j.id))).toEqual([['a'], ['c']]);
    expect(removeJob(before, 'zz')).toBe(before);
  });
});

describe('planJobEvent', () => {
  it('replaces a listed job without refetching', () => {
    const plan = planJobEvent([list(filter(), pages({ items: [a, b] }))], makeJob('b', { state: 'Stopping' }));
    expect(plan.updates).toHaveLength(1);
    expect(plan.updates[0]?.data.pages[0]?.items[1]?.state).toBe('Stopping');
    expect(plan.refetch).toEqual([]);
  });

  it('refetches the lists that may show an unknown job, not those of other accounts or filters', () => {
    const fresh = makeJob('new', { createdAt: '2025-03-04T00:00:00Z', state: 'Queued' });
    const all = list(filter(), pages({ items: [a] }));
    const mine = list(filter({ mine: true }), pages({ items: [a] }));
    const queued = list(filter({ state: 'Queued' }), pages({ items: [] }));
    const running = list(filter({ state: 'Running' }), pages({ items: [a] }));
    const pytorch = list(filter({ kind: 'pytorch' }), pages({ items: [] }));
    const other = list(filter({ account: 'u-bob' }), pages({ items: [] }));
    const loading = list(filter({ kind: 'custom' }), undefined);
    const plan = planJobEvent([all, mine, queued, running, pytorch, other, loading], fresh);
    expect(plan.updates).toEqual([]);
    expect(plan.refetch).toEqual([all.key, mine.key, queued.key]);
  });

  it('refetches a filtered list the job has left, and one it has entered', () => {
    const running = list(filter({ state: 'Running' }), pages({ items: [a, b] }));
    const succeeded = list(filter({ state: 'Succeeded' }), pages({ items: [c] }));
    const done = makeJob('b', { state: 'Succeeded', createdAt: b.createdAt });
    const plan = planJobEvent([running, succeeded], done);
    expect(plan.updates.map((u) => u.key)).toEqual([running.key]);
    expect(plan.refetch).toEqual([running.key, succeeded.key]);
  });

  it('leaves a list alone when the job would only appear after "Load more"', () => {
    const partial = list(filter(), pages({ items: [a, b], nextCursor: 'more' }));
    const old = makeJob('old', { createdAt: '2025-02-01T00:00:00Z' });
    expect(planJobEvent([partial], old).refetch).toEqual([]);
    const recent = makeJob('recent', { createdAt: '2025-03-02T12:00:00Z' });
    expect(planJobEvent([partial], recent).refetch).toEqual([partial.key]);
  });
});

describe('listFilterOf', () => {
  it('reads the filter from a list key only', () => {
    expect(listFilterOf(jobKeys.list(filter({ kind: 'pytorch' })))).toEqual(filter({ kind: 'pytorch' }));
    expect(listFilterOf(jobKeys.lists())).toBeNull();
    expect(listFilterOf(jobKeys.detail('a'))).toBeNull();
  });
});

describe('applyJobToDetail', () => {
  it('replaces the summary of the same job only', () => {
    const detail = makeDetail(a);
    const changed = makeJob('a', { state: 'Failed' });
    expect(applyJobToDetail(detail, changed)?.job).toBe(changed);
    expect(applyJobToDetail(detail, changed)?.pods).toBe(detail.pods);
    expect(applyJobToDetail(detail, makeJob('b'))).toBe(detail);
    expect(applyJobToDetail(undefined, changed)).toBeUndefined();
  });
});

describe('applyJobEvent', () => {
  it('patches the lists and the detail in the cache and marks them for refetching', () => {
    const client = new QueryClient();
    const f = filter();
    client.setQueryData<JobListData>(jobKeys.list(f), pages({ items: [a, b] }));
    client.setQueryData<JobListData>(jobKeys.list(filter({ state: 'Running' })), pages({ items: [a, b] }));
    client.setQueryData<JobDetail>(jobKeys.detail('b'), makeDetail(b));
    client.setQueryData(jobKeys.manifests('b'), 'kind: Job');
    client.setQueryData(jobKeys.wait('b'), { state: 'Queued', reasons: [], position: null, estimate: null, suggestions: [] });

    applyJobEvent(client, makeJob('b', { state: 'Succeeded', createdAt: b.createdAt }));

    expect(client.getQueryData<JobListData>(jobKeys.list(f))?.pages[0]?.items[1]?.state).toBe('Succeeded');
    expect(client.getQueryState(jobKeys.list(f))?.isInvalidated).toBe(false);
    expect(client.getQueryState(jobKeys.list(filter({ state: 'Running' })))?.isInvalidated).toBe(true);
    expect(client.getQueryData<JobDetail>(jobKeys.detail('b'))?.job.state).toBe('Succeeded');
    expect(client.getQueryState(jobKeys.detail('b'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(jobKeys.wait('b'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(jobKeys.manifests('b'))?.isInvalidated).toBe(false);
  });

  it('does not create a detail that was not cached', () => {
    const client = new QueryClient();
    applyJobEvent(client, a);
    expect(client.getQueryData(jobKeys.detail('a'))).toBeUndefined();
  });
});

describe('applyJobDeleted', () => {
  it('takes the job out of every cached list and drops its detail', () => {
    const client = new QueryClient();
    client.setQueryData<JobListData>(jobKeys.list(filter()), pages({ items: [a, b] }, { items: [c] }));
    client.setQueryData<JobListData>(jobKeys.list(filter({ mine: true })), pages({ items: [b] }));
    client.setQueryData<JobDetail>(jobKeys.detail('b'), makeDetail(b));

    applyJobDeleted(client, 'b');

    expect(client.getQueryData<JobListData>(jobKeys.list(filter()))?.pages.map((p) => p.items.map((j) => j.id))).toEqual([['a'], ['c']]);
    expect(client.getQueryData<JobListData>(jobKeys.list(filter({ mine: true })))?.pages[0]?.items).toEqual([]);
    expect(client.getQueryData(jobKeys.detail('b'))).toBeUndefined();
  });
});

describe('parseJobEvent', () => {
  it('parses a job summary', () => {
    expect(parseJobEvent(JSON.stringify(a))).toEqual(a);
  });

  it('rejects malformed data', () => {
    expect(parseJobEvent('nope')).toBeNull();
    expect(parseJobEvent('null')).toBeNull();
    expect(parseJobEvent('[]')).toBeNull();
    expect(parseJobEvent('{"id":"a","name":"n","state":"Running"}')).toBeNull();
  });
});
