import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import * as approvalsApi from '../../api/approvals';
import { ApiError } from '../../api/errors';
import * as jobsApi from '../../api/jobs';
import type { Approval, JobDetail, Wait } from '../../api/types';
import { makeDetail, makeJob } from '../../test/jobFixtures';
import { JobWaitPanel } from './JobWaitPanel';

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return { ...actual, getJobWait: vi.fn(), resubmitJob: vi.fn() };
});

vi.mock('../../api/approvals', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/approvals')>();
  return { ...actual, createApproval: vi.fn() };
});

vi.mock('../../api/acceleratorModels', () => ({
  listAcceleratorModels: () =>
    Promise.resolve({
      items: [
        {
          key: 'nvidia-a100-80gb',
          displayName: 'NVIDIA A100 80GB',
          vendor: 'NVIDIA',
          resource: 'nvidia.com/gpu',
          labelKey: 'k',
          labelValue: 'v',
          restricted: false,
          memoryMiB: null,
          memoryResource: null,
          retired: false,
          retiredAt: null,
        },
        {
          key: 'nvidia-h100-80gb',
          displayName: 'NVIDIA H100 80GB',
          vendor: 'NVIDIA',
          resource: 'nvidia.com/gpu',
          labelKey: 'k',
          labelValue: 'h',
          restricted: false,
          memoryMiB: null,
          memoryResource: null,
          retired: false,
          retiredAt: null,
        },
      ],
    }),
}));

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
        accounts: [{ slug: 'vision-lab', name: 'Vision Lab', kind: 'team', role: 'member', fileAccess: 'rw', expiresAt: null }],
      }),
  };
});

const api = vi.mocked(jobsApi);
const approvals = vi.mocked(approvalsApi);

const queued: JobDetail = makeDetail(
  makeJob('j1', {
    name: 'train-resnet',
    state: 'Queued',
    startedAt: null,
    requests: { 'nvidia-a100-80gb': '2', cpu: '8', memory: '32Gi' },
    reasons: [
      {
        code: 'AccountQuotaExceeded',
        message: 'the account would use 10 of nvidia-a100-80gb but its max is 8',
        numbers: { requested: 2000, used: 8000, max: 8000, granted: 0, effectiveMax: 8000 },
      },
    ],
  }),
);

const quotaReason = queued.job.reasons[0]!;

function waitWith(overrides: Partial<Wait> = {}): Wait {
  return {
    state: 'Queued',
    reasons: [
      quotaReason,
      {
        code: 'Fragmentation',
        message: 'enough nvidia-a100-80gb is free in all (2) but the largest free block on one node is 1 and each pod needs 2',
        numbers: { largestFreeBlock: 1000, needs: 2000, totalFree: 2000 },
      },
    ],
    position: {
      inAccount: 2,
      accountWaiting: 5,
      inCluster: 7,
      clusterWaiting: 30,
      ahead: [
        { id: 'j5', name: 'bert-large', owner: 'bob', sameAccount: true, priority: 'high', requests: { 'nvidia-a100-80gb': '4' } },
        { id: null, name: null, owner: null, sameAccount: false, priority: 'normal', requests: { cpu: '16', memory: '64Gi' } },
      ],
    },
    estimate: {
      // Ten seconds of slack so that the minute shown does not depend on how fast the test runs.
      startBy: new Date(Date.now() + 119 * 60_000 + 10_000).toISOString(),
      waitsFor: ['j3', 'j4'],
      unknown: null,
    },
    suggestions: [
      {
        code: 'FewerAccelerators',
        message: 'with 1 instead of 2 nvidia-a100-80gb per pod it would start now',
        change: { 'resources.accelerators': 1 },
        numbers: { requested: 2, startsNowWith: 1 },
      },
      {
        code: 'OtherModel',
        message: '2 NVIDIA H100 80GB per pod are free now: with that model it would start now',
        change: { 'resources.acceleratorModel': 'nvidia-h100-80gb' },
        numbers: { accelerators: 2 },
      },
      {
        code: 'RequestGrant',
        message: 'a grant of 2 nvidia-a100-80gb to the account would lift its quota enough (an account admin approves it)',
        change: { resource: 'nvidia-a100-80gb', amount: '2' },
        numbers: { shortfall: 2000, used: 8000, effectiveMax: 8000 },
      },
    ],
    ...overrides,
  };
}

function renderPanel(detail: JobDetail = queued) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/jobs/:id', element: <JobWaitPanel detail={detail} /> },
      { path: '/approvals', element: <p>approvals</p> },
    ],
    { initialEntries: [`/jobs/${detail.job.id}`] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, client };
}

function suggestion(code: string): HTMLElement {
  const found = screen.getAllByTestId('job-wait-suggestion').find((s) => s.dataset.code === code);
  if (!found) throw new Error(`no suggestion ${code}`);
  return found;
}

beforeEach(() => {
  vi.clearAllMocks();
  api.getJobWait.mockResolvedValue(waitWith());
});

describe('JobWaitPanel', () => {
  it('shows the reasons, the place in line and a known estimate', async () => {
    renderPanel();
    const panel = screen.getByTestId('job-waiting');
    // The job's own reasons until the answer comes.
    expect(
      within(panel)
        .getAllByTestId('job-reason')
        .map((r) => r.dataset.code),
    ).toEqual(['AccountQuotaExceeded']);

    const position = await screen.findByTestId('job-wait-position');
    expect(api.getJobWait).toHaveBeenCalledWith('j1', expect.anything());
    expect(
      within(panel)
        .getAllByTestId('job-reason')
        .map((r) => r.dataset.code),
    ).toEqual(['AccountQuotaExceeded', 'Fragmentation']);
    expect(within(panel).getAllByTestId('job-reason')[1]?.textContent).toBe(
      'Free capacity is fragmented: 1 GPU free on the best node, each pod needs 2 (2 free in all)',
    );
    expect(position.textContent).toContain("2nd in its account's line (of 5), 7th in the cluster (of 30)");

    const estimate = screen.getByTestId('job-wait-estimate');
    expect(estimate.dataset.known).toBe('true');
    expect(within(estimate).getByTestId('job-wait-start-by').textContent).toMatch(/^Should start by .+ at the latest$/);
    expect(within(estimate).getByTestId('job-wait-relative').textContent).toBe('(in 1 h 59 min)');
    expect(
      within(estimate)
        .getAllByTestId('job-wait-waits-for')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/jobs/j3', '/jobs/j4']);

    const suggestions = screen.getAllByTestId('job-wait-suggestion');
    expect(suggestions.map((s) => s.dataset.code)).toEqual(['FewerAccelerators', 'OtherModel', 'RequestGrant']);
    expect(within(suggestion('FewerAccelerators')).getByTestId('job-wait-follow').textContent).toBe('Submit with 1 accelerator instead');
    expect(await within(suggestion('OtherModel')).findByText('Use NVIDIA H100 80GB instead')).toBeTruthy();
    expect(within(suggestion('RequestGrant')).getByTestId('job-wait-follow').textContent).toBe('Request a grant');
  });

  it('lists the jobs ahead, hiding those of accounts the viewer may not see', async () => {
    renderPanel();
    const ahead = await screen.findByTestId('job-wait-ahead');
    const rows = within(ahead).getAllByTestId('job-wait-ahead-row');
    expect(rows).toHaveLength(2);

    expect(rows[0]?.dataset.hidden).toBe('false');
    expect(rows[0]?.dataset.sameAccount).toBe('true');
    expect(within(rows[0]!).getByRole('link', { name: 'bert-large' }).getAttribute('href')).toBe('/jobs/j5');
    expect(rows[0]?.textContent).toContain('#5');
    expect(rows[0]?.textContent).toContain('by bob');
    expect(rows[0]?.textContent).toContain('High priority');

    expect(rows[1]?.dataset.hidden).toBe('true');
    expect(rows[1]?.dataset.sameAccount).toBe('false');
    expect(rows[1]?.textContent).toContain('#6');
    expect(rows[1]?.textContent).toContain('a job of another account');
    expect(within(rows[1]!).queryByRole('link')).toBeNull();
  });

  it('says why no start time can be given', async () => {
    api.getJobWait.mockResolvedValue(
      waitWith({
        estimate: {
          startBy: null,
          waitsFor: [],
          unknown: { code: 'WaitsForJobsWithoutTimeLimit', message: '3 running jobs have no time limit', numbers: { jobs: 3 } },
        },
        suggestions: [],
      }),
    );
    renderPanel();
    const estimate = await screen.findByTestId('job-wait-estimate');
    expect(estimate.dataset.known).toBe('false');
    expect(within(estimate).queryByTestId('job-wait-start-by')).toBeNull();
    expect(within(estimate).getByTestId('job-wait-unknown').dataset.code).toBe('WaitsForJobsWithoutTimeLimit');
    expect(estimate.textContent).toContain(
      'No start time can be given. 3 running jobs without a time limit stand in its way, and it cannot start before some of them end',
    );
    expect(screen.queryByTestId('job-wait-suggestions')).toBeNull();
  });

  it('follows a suggestion: confirms, resubmits with the change replacing the job, and opens the new job', async () => {
    api.resubmitJob.mockResolvedValue(makeJob('j2', { state: 'Admitted' }));
    const { router } = renderPanel();
    await screen.findByTestId('job-wait-suggestions');

    fireEvent.click(within(suggestion('FewerAccelerators')).getByTestId('job-wait-follow'));
    const dialog = screen.getByTestId('job-wait-follow-dialog');
    expect(dialog.textContent).toContain('Submit with 1 accelerator instead?');
    expect(dialog.textContent).toContain('replaces this one');
    expect(api.resubmitJob).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByTestId('job-wait-follow-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/jobs/j2'));
    expect(api.resubmitJob).toHaveBeenCalledWith('j1', { changes: { 'resources.accelerators': 1 }, replace: true });
  });

  it('shows why following failed and stays on the job', async () => {
    api.resubmitJob.mockRejectedValue(
      new ApiError({
        status: 403,
        code: 'NotJobOwner',
        title: 'Forbidden',
        detail: 'only the job\u2019s owner or an admin of its account may replace it',
      }),
    );
    const { router } = renderPanel();
    await screen.findByTestId('job-wait-suggestions');
    fireEvent.click(within(suggestion('OtherModel')).getByTestId('job-wait-follow'));
    fireEvent.click(screen.getByTestId('job-wait-follow-confirm'));
    const error = await screen.findByTestId('form-error');
    expect(error.dataset.code).toBe('NotJobOwner');
    expect(api.resubmitJob).toHaveBeenCalledWith('j1', { changes: { 'resources.acceleratorModel': 'nvidia-h100-80gb' }, replace: true });
    expect(router.state.location.pathname).toBe('/jobs/j1');
  });

  it('opens the grant request prefilled with the account, resource and amount', async () => {
    const created: Approval = {
      id: 'a1',
      kind: 'quota-grant',
      state: 'pending',
      account: 'vision-lab',
      requester: { username: 'alice', displayName: 'Alice' },
      resource: 'nvidia-a100-80gb',
      amount: '2',
      until: '2025-03-02T10:00:00Z',
      model: null,
      jobId: null,
      reason: 'to start train-resnet',
      reviewer: null,
      comment: null,
      createdAt: '2025-03-01T10:00:00Z',
      decidedAt: null,
    };
    approvals.createApproval.mockResolvedValue(created);
    renderPanel();
    await screen.findByTestId('job-wait-suggestions');

    fireEvent.click(within(suggestion('RequestGrant')).getByTestId('job-wait-follow'));
    const dialog = screen.getByTestId('job-wait-grant-dialog');
    expect(dialog.textContent).toContain('Request a quota grant for vision-lab');
    await waitFor(() => expect((within(dialog).getByTestId('grant-account') as HTMLSelectElement).value).toBe('vision-lab'));
    expect((within(dialog).getByTestId('grant-resource') as HTMLSelectElement).value).toBe('nvidia-a100-80gb');
    expect((within(dialog).getByTestId('grant-amount') as HTMLInputElement).value).toBe('2');
    expect(api.resubmitJob).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByTestId('grant-reason'), { target: { value: 'to start train-resnet' } });
    fireEvent.click(within(dialog).getByTestId('grant-submit'));
    expect(await screen.findByTestId('job-wait-grant-sent')).toBeTruthy();
    expect(screen.queryByTestId('job-wait-grant-dialog')).toBeNull();
    expect(approvals.createApproval).toHaveBeenCalledWith(
      expect.objectContaining({
        kind: 'quota-grant',
        account: 'vision-lab',
        resource: 'nvidia-a100-80gb',
        amount: '2',
        reason: 'to start train-resnet',
      }),
    );
  });

  it('offers no resubmit to a viewer who may not replace the job, but still the grant', async () => {
    renderPanel({ ...queued, permissions: { stop: false, delete: false, readLogs: true, resubmit: true } });
    await screen.findByTestId('job-wait-suggestions');
    expect(within(suggestion('FewerAccelerators')).queryByTestId('job-wait-follow')).toBeNull();
    expect(within(suggestion('OtherModel')).queryByTestId('job-wait-follow')).toBeNull();
    expect(within(suggestion('RequestGrant')).getByTestId('job-wait-follow')).toBeTruthy();
  });

  it('explains an admitted job that has not started, without place or estimate', async () => {
    api.getJobWait.mockResolvedValue({
      state: 'Pending',
      reasons: [{ code: 'GangWaiting', message: '1 of 4 pods placed; all must start together', numbers: { placed: 1, total: 4 } }],
      position: null,
      estimate: null,
      suggestions: [],
    });
    renderPanel(makeDetail(makeJob('j1', { state: 'Pending', startedAt: null })));
    const reason = await screen.findByTestId('job-reason');
    expect(reason.textContent).toBe('1 of 4 pods placed; all must start together');
    expect(screen.getByTestId('job-waiting').dataset.state).toBe('Pending');
    expect(screen.getByText('Admitted, waiting to start')).toBeTruthy();
    expect(screen.queryByTestId('job-wait-position')).toBeNull();
    expect(screen.queryByTestId('job-wait-estimate')).toBeNull();
  });

  it('shows a failed load with a retry, keeping the job’s own reasons', async () => {
    api.getJobWait.mockRejectedValue(new ApiError({ status: 500, code: 'Internal', title: 'Internal Server Error', detail: 'boom' }));
    renderPanel();
    expect(await screen.findByTestId('error-state')).toBeTruthy();
    expect(screen.getAllByTestId('job-reason').map((r) => r.dataset.code)).toEqual(['AccountQuotaExceeded']);
    api.getJobWait.mockResolvedValue(waitWith());
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('job-wait-position')).toBeTruthy();
    expect(screen.queryByTestId('error-state')).toBeNull();
  });
});
