import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import * as approvalsApi from '../../api/approvals';
import * as jobsApi from '../../api/jobs';
import type { Approval, JobDetail, User } from '../../api/types';
import { makeDecision, makeUtilisation } from '../../test/gpuFixtures';
import { makeDetail, makeJob } from '../../test/jobFixtures';
import { CurrentUserContext } from '../auth/session';
import { JobIdleWarning } from './JobIdleWarning';

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return { ...actual, getJobGpuUtilisation: vi.fn() };
});

vi.mock('../../api/approvals', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/approvals')>();
  return { ...actual, createApproval: vi.fn(), listApprovals: vi.fn() };
});

vi.mock('../../api/acceleratorModels', () => ({ listAcceleratorModels: () => Promise.resolve({ items: [] }) }));

vi.mock('../../api/me', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/me')>();
  return {
    ...actual,
    getMyProfile: () =>
      Promise.resolve({
        id: 'u1',
        username: 'alice',
        slug: 'alice',
        uid: 1000,
        displayName: 'Alice',
        email: null,
        role: 'user',
        defaultAccount: 'vision-lab',
        accounts: [],
      }),
  };
});

const jobs = vi.mocked(jobsApi);
const approvals = vi.mocked(approvalsApi);

const alice: User = { id: 'u1', username: 'alice', displayName: 'Alice', role: 'user' };
const bob: User = { id: 'u2', username: 'bob', displayName: 'Bob', role: 'user' };

const notebook: JobDetail = makeDetail(
  makeJob('j1', { name: 'notebook', kind: 'jupyter', owner: 'alice', requests: { cpu: '4', memory: '16Gi', 'nvidia-a100-80gb': '1' } }),
);

// Stopped in 20 minutes (and some seconds, so that the minute shown does not depend on the test's speed).
const stopAt = () => new Date(Date.now() + 20 * 60_000 + 10_000).toISOString();

function lock(overrides: Partial<Approval> = {}): Approval {
  return {
    id: 'a1',
    kind: 'job-lock',
    state: 'approved',
    account: 'vision-lab',
    requester: { username: 'alice', displayName: 'Alice' },
    resource: null,
    amount: null,
    until: '2026-11-30T15:00:00Z',
    model: null,
    jobId: 'j1',
    reason: 'still training',
    reviewer: null,
    comment: null,
    createdAt: '2026-11-30T12:00:00Z',
    decidedAt: '2026-11-30T12:00:00Z',
    ...overrides,
  };
}

function renderWarning(user: User | null = alice) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/jobs/:id', element: <JobIdleWarning detail={notebook} /> },
      { path: '/approvals', element: <p>approvals</p> },
    ],
    { initialEntries: ['/jobs/j1'] },
  );
  render(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={user}>
        <RouterProvider router={router} />
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
  return { client };
}

beforeEach(() => {
  vi.clearAllMocks();
  approvals.listApprovals.mockResolvedValue({ items: [], nextCursor: null });
});

describe('JobIdleWarning', () => {
  it('warns with the numbers and the stop time', async () => {
    const at = stopAt();
    jobs.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ decision: makeDecision('Waiting', { stopAt: at }) }));
    renderWarning();
    const banner = await screen.findByTestId('job-idle-warning');
    expect(banner.dataset.stage).toBe('warned');
    expect(within(banner).getByText("This job's GPUs are idle")).toBeTruthy();
    expect(within(banner).getByTestId('job-idle-numbers').textContent).toBe(
      'At most 1.5 % (mean 0.4 %) over the last 2 h, below the 5 % threshold.',
    );
    const stop = within(banner).getByTestId('job-idle-stop');
    expect(stop.dataset.at).toBe(at);
    expect(stop.textContent).toMatch(/^It will be stopped at .+ \(in 20 min\) unless it is used\.$/);
    expect(within(banner).getByTestId('job-idle-extend').textContent).toBe('Request extension');
  });

  it('says a job due to be stopped goes at the next check', async () => {
    jobs.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ decision: makeDecision('Stop', { idleSince: '2026-11-30T10:00:00Z' }) }));
    renderWarning();
    const banner = await screen.findByTestId('job-idle-warning');
    expect(banner.dataset.stage).toBe('stopping');
    expect(within(banner).getByTestId('job-idle-stop').textContent).toBe('It will be stopped at the next check unless it is used.');
  });

  it('asks for an extension as a job lock of this job, granted at once when short', async () => {
    jobs.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ decision: makeDecision('Warn', { stopAt: stopAt() }) }));
    approvals.createApproval.mockResolvedValue(lock());
    renderWarning();
    fireEvent.click(await screen.findByTestId('job-idle-extend'));

    const dialog = screen.getByTestId('job-idle-extend-dialog');
    expect(dialog.textContent).toContain('Request an extension for notebook');
    expect((within(dialog).getByTestId('request-job-id') as HTMLInputElement).value).toBe('j1');
    // Three hours from now, to the minute.
    const until = (within(dialog).getByTestId('grant-until') as HTMLInputElement).value;
    const hours = (Date.parse(until) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(2.95);
    expect(hours).toBeLessThanOrEqual(3);

    fireEvent.change(within(dialog).getByTestId('grant-reason'), { target: { value: 'still training' } });
    fireEvent.click(within(dialog).getByTestId('grant-submit'));
    const sent = await screen.findByTestId('job-idle-extension-sent');
    expect(approvals.createApproval).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'job-lock', jobId: 'j1', reason: 'still training' }),
    );
    expect(sent.textContent).toMatch(/^Extension granted until .+: the job is not stopped for idleness until then\. View my requests$/);
    expect(screen.queryByTestId('job-idle-extend-dialog')).toBeNull();
    // The decision is asked again: the lock exempts the job.
    await waitFor(() => expect(jobs.getJobGpuUtilisation).toHaveBeenCalledTimes(2));
  });

  it('says a longer extension was sent for review', async () => {
    jobs.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ decision: makeDecision('Warn', { stopAt: stopAt() }) }));
    approvals.createApproval.mockResolvedValue(lock({ state: 'pending', decidedAt: null }));
    renderWarning();
    fireEvent.click(await screen.findByTestId('job-idle-extend'));
    fireEvent.change(screen.getByTestId('grant-reason'), { target: { value: 'a long run' } });
    fireEvent.click(screen.getByTestId('grant-submit'));
    expect((await screen.findByTestId('job-idle-extension-sent')).textContent).toBe(
      'Your extension request was sent for review. View my requests',
    );
  });

  it('points to the request already waiting instead of asking again', async () => {
    jobs.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ decision: makeDecision('Waiting', { stopAt: stopAt() }) }));
    approvals.listApprovals.mockResolvedValue({ items: [lock({ state: 'pending', decidedAt: null })], nextCursor: null });
    renderWarning();
    const pending = await screen.findByTestId('job-idle-pending');
    expect(approvals.listApprovals).toHaveBeenCalledWith(expect.objectContaining({ scope: 'mine', state: 'pending' }), expect.anything());
    expect(pending.textContent).toBe('An extension request for this job awaits review. View my requests');
    expect(within(pending).getByRole('link').getAttribute('href')).toBe('/approvals');
    expect(screen.queryByTestId('job-idle-extend')).toBeNull();
  });

  it('offers no extension to someone else looking at the job', async () => {
    jobs.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ decision: makeDecision('Waiting', { stopAt: stopAt() }) }));
    renderWarning(bob);
    expect(await screen.findByTestId('job-idle-warning')).toBeTruthy();
    expect(screen.queryByTestId('job-idle-extend')).toBeNull();
    expect(approvals.listApprovals).not.toHaveBeenCalled();
  });

  it('says nothing while the GPUs are busy or the decision is unknown', async () => {
    jobs.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ decision: makeDecision('Busy') }));
    renderWarning();
    await waitFor(() => expect(jobs.getJobGpuUtilisation).toHaveBeenCalled());
    expect(screen.queryByTestId('job-idle-warning')).toBeNull();
    expect(screen.queryByTestId('job-idle-exempt')).toBeNull();
  });

  it('says until when a job lock keeps the job', async () => {
    jobs.getJobGpuUtilisation.mockResolvedValue(
      makeUtilisation({ decision: makeDecision('Exempt', { peakPercent: null, meanPercent: null, lockUntil: '2026-11-30T15:00:00Z' }) }),
    );
    renderWarning();
    expect((await screen.findByTestId('job-idle-exempt')).textContent).toMatch(/^Kept from idle reclamation by a job lock until .+\.$/);
    expect(screen.queryByTestId('job-idle-warning')).toBeNull();
  });
});
