import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import * as jobsApi from '../../api/jobs';
import type { JobDetail } from '../../api/types';
import { FakeEventSource, installFakeEventSource } from '../../test/fakeEventSource';
import { makeDecision, makeUtilisation } from '../../test/gpuFixtures';
import { makeDetail, makeJob, makePod } from '../../test/jobFixtures';
import { CurrentUserContext } from '../auth/session';
import { JobDetailPage } from './JobDetailPage';

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return {
    ...actual,
    getJob: vi.fn(),
    stopJob: vi.fn(),
    resubmitJob: vi.fn(),
    deleteJob: vi.fn(),
    saveJobAsTemplate: vi.fn(),
    getJobLogs: vi.fn(),
    getJobManifests: vi.fn(),
    getJobWait: vi.fn(),
    getJobConnect: vi.fn(),
    getJobGpuUtilisation: vi.fn(),
  };
});

vi.mock('@xterm/xterm', async () => ({ Terminal: (await import('../../test/fakeXterm')).FakeTerminal }));
vi.mock('@xterm/addon-fit', async () => ({ FitAddon: (await import('../../test/fakeXterm')).FakeFitAddon }));

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
      ],
    }),
}));

const api = vi.mocked(jobsApi);

const running: JobDetail = makeDetail(makeJob('j1', { name: 'train-resnet' }), {
  template: { id: 't1', version: 3, name: 'PyTorch DDP' },
  sourceJob: 'j0',
  pods: [
    makePod('j1-main-0', {
      containers: [{ name: 'main', state: 'running', reason: null, exitCode: null, message: null, restarts: 2 }],
    }),
  ],
  events: [
    {
      at: '2025-03-01T10:00:30Z',
      type: 'Normal',
      reason: 'Scheduled',
      object: 'Pod/j1-main-0',
      message: 'Assigned to gpu-node-1',
      count: 1,
    },
    { at: '2025-03-01T10:05:00Z', type: 'Warning', reason: 'BackOff', object: 'Pod/j1-main-0', message: 'Back-off restarting', count: 3 },
  ],
});

const failed: JobDetail = makeDetail(makeJob('j1', { name: 'train-resnet', state: 'Failed', finishedAt: '2025-03-01T11:00:00Z' }), {
  exits: [{ pod: 'j1-main-0', container: 'main', exitCode: 137, reason: 'OOMKilled', message: null }],
});

function renderAt(path: string, viewer = 'alice') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/jobs', element: <p>job list</p> },
      { path: '/jobs/new', element: <p>new job</p> },
      { path: '/jobs/:id', element: <JobDetailPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={{ id: 'u1', username: viewer, displayName: viewer, role: 'user' }}>
        <RouterProvider router={router} />
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
  return { router, client };
}

beforeEach(() => {
  api.getJobLogs.mockResolvedValue('hello\nworld\n');
  api.getJobManifests.mockResolvedValue('apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n');
  api.getJobWait.mockResolvedValue({ state: 'Queued', reasons: [], position: null, estimate: null, suggestions: [] });
  api.getJobConnect.mockResolvedValue({
    job: 'j1',
    state: 'Running',
    reachable: false,
    sshEnabled: true,
    sshHost: 'localhost',
    sshPort: 2222,
    pods: [],
  });
  api.getJobGpuUtilisation.mockResolvedValue(makeUtilisation());
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('JobDetailPage', () => {
  it('shows the actions, origin, pods, events and logs of a running job', async () => {
    api.getJob.mockResolvedValue(running);
    renderAt('/jobs/j1');
    await screen.findByTestId('job-detail');

    expect(screen.queryByTestId('job-waiting')).toBeNull();
    expect(screen.getByTestId('job-clone').getAttribute('href')).toBe('/jobs/new?from=j1');
    expect(screen.getByTestId('job-resubmit')).toBeTruthy();
    expect(screen.getByTestId('job-save-template')).toBeTruthy();
    expect(screen.getByTestId('job-stop')).toBeTruthy();
    expect(screen.queryByTestId('job-delete')).toBeNull();
    expect(screen.getByTestId('job-template').textContent).toBe('From template PyTorch DDP v3');
    expect(within(screen.getByTestId('job-source')).getByRole('link').getAttribute('href')).toBe('/jobs/j0');

    const pod = screen.getByTestId('job-pod');
    expect(pod.dataset.name).toBe('j1-main-0');
    expect(within(pod).getByText('main #0')).toBeTruthy();
    expect(await within(pod).findByText('2 × NVIDIA A100 80GB')).toBeTruthy();
    expect(within(pod).getByText(/2 restarts/)).toBeTruthy();

    const events = screen.getAllByTestId('job-event');
    expect(events.map((e) => e.dataset.reason)).toEqual(['BackOff', 'Scheduled']);
    expect(events[0]?.dataset.type).toBe('Warning');
    expect(within(events[0]!).getByTestId('job-event-count').textContent).toBe('×3');
    expect(within(events[1]!).getByTestId('job-event-count').textContent).toBe('');

    expect(screen.queryByTestId('job-exits')).toBeNull();
    const logs = screen.getByTestId('job-logs');
    expect(logs.dataset.pod).toBe('j1-main-0');
    await waitFor(() => expect(screen.getByTestId('job-log-lines').textContent).toBe('hello\nworld'));
    expect(api.getJobLogs).toHaveBeenCalledWith('j1', { pod: 'j1-main-0', tailLines: 2000 }, expect.anything());
    const download = screen.getByTestId('job-log-download');
    expect(download.getAttribute('href')).toBe('/api/v1/jobs/j1/logs?pod=j1-main-0&tailLines=100000');
    expect(download.hasAttribute('download')).toBe(true);
    expect(screen.getByTestId('job-log-follow')).toBeTruthy();
  });

  it('hides what the caller may not do', async () => {
    api.getJob.mockResolvedValue({
      ...failed,
      permissions: { stop: false, delete: false, readLogs: false, resubmit: false },
    });
    renderAt('/jobs/j1');
    await screen.findByTestId('job-detail');
    expect(screen.getByTestId('job-clone')).toBeTruthy();
    for (const id of ['job-resubmit', 'job-stop', 'job-delete', 'job-logs']) expect(screen.queryByTestId(id)).toBeNull();
  });

  it('explains how a finished job ended, shows archived logs and deletes it', async () => {
    api.getJob.mockResolvedValue(failed);
    api.deleteJob.mockResolvedValue(undefined);
    const { router } = renderAt('/jobs/j1');
    await screen.findByTestId('job-detail');

    const exit = within(screen.getByTestId('job-exits')).getByTestId('job-exit');
    expect(exit.dataset.exitCode).toBe('137');
    expect(within(exit).getByTestId('job-exit-explanation').textContent).toBe('Ran out of memory (limit 16 GiB) and was killed.');
    expect(screen.getByTestId('job-pods-empty')).toBeTruthy();
    expect(screen.queryByTestId('job-stop')).toBeNull();
    expect(screen.queryByTestId('job-log-follow')).toBeNull();
    expect(screen.getByTestId('job-logs').dataset.pod).toBe('j1-main-0');
    await waitFor(() => expect(screen.getByTestId('job-log-lines').textContent).toBe('hello\nworld'));

    fireEvent.click(screen.getByTestId('job-delete'));
    fireEvent.click(screen.getByTestId('job-delete-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/jobs'));
    expect(api.deleteJob).toHaveBeenCalledWith('j1');
  });

  it('resubmits and opens the new job', async () => {
    api.getJob.mockImplementation((id: string) =>
      Promise.resolve(id === 'j2' ? makeDetail(makeJob('j2', { name: 'train-resnet', state: 'Queued', startedAt: null })) : failed),
    );
    api.resubmitJob.mockResolvedValue(makeJob('j2', { state: 'Queued' }));
    const { router } = renderAt('/jobs/j1');
    fireEvent.click(await screen.findByTestId('job-resubmit'));
    fireEvent.click(screen.getByTestId('job-resubmit-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/jobs/j2'));
    expect(api.resubmitJob).toHaveBeenCalledWith('j1');
    await waitFor(() => expect(screen.getByTestId('job-detail').dataset.id).toBe('j2'));
  });

  it('explains why a queued job waits, and shows no waiting panel for a running one', async () => {
    api.getJob.mockResolvedValue(makeDetail(makeJob('j3', { state: 'Queued', startedAt: null })));
    api.getJobWait.mockResolvedValue({
      state: 'Queued',
      reasons: [{ code: 'InsufficientCapacity', message: 'no room', numbers: { placed: 0, pods: 1, nodes: 4 } }],
      position: { inAccount: 1, accountWaiting: 1, inCluster: 3, clusterWaiting: 4, ahead: [] },
      estimate: { startBy: null, waitsFor: [], unknown: { code: 'BeyondHorizon', message: '', numbers: { horizonDays: 60 } } },
      suggestions: [],
    });
    renderAt('/jobs/j3');
    const position = await screen.findByTestId('job-wait-position');
    expect(within(screen.getByTestId('job-waiting')).getByTestId('job-reason').dataset.code).toBe('InsufficientCapacity');
    expect(position.textContent).toContain("1st in its account's line (of 1), 3rd in the cluster (of 4)");
    expect(screen.getByTestId('job-wait-estimate').dataset.known).toBe('false');
    expect(api.getJobWait).toHaveBeenCalledWith('j3', expect.anything());
  });

  it('offers its owner a terminal and SSH, and charts the GPUs of a running job with an idle warning', async () => {
    const gpuJob = makeDetail(
      makeJob('j1', { name: 'notebook', kind: 'jupyter', requests: { cpu: '4', memory: '16Gi', 'nvidia-a100-80gb': '2' } }),
      { pods: [makePod('c-j1-main-0')] },
    );
    api.getJob.mockResolvedValue(gpuJob);
    api.getJobConnect.mockResolvedValue({
      job: 'j1',
      state: 'Running',
      reachable: true,
      sshEnabled: true,
      sshHost: 'localhost',
      sshPort: 2222,
      pods: [
        {
          pod: 'main-0',
          terminal: '/api/v1/jobs/j1/terminal',
          login: 'alice+j1',
          command: 'ssh -p 2222 alice+j1@localhost',
          sshConfig: 'Host crater-j1\n  HostName localhost\n  Port 2222\n  User alice+j1\n',
        },
      ],
    });
    api.getJobGpuUtilisation.mockResolvedValue(
      makeUtilisation({ decision: makeDecision('Waiting', { stopAt: new Date(Date.now() + 600_000).toISOString() }) }),
    );
    installFakeEventSource();
    renderAt('/jobs/j1');
    expect(await screen.findByTestId('job-connect')).toBeTruthy();
    expect(screen.getByTestId('job-terminal-open')).toBeTruthy();
    // The chart follows the job's GPU metrics stream.
    await waitFor(() => expect(FakeEventSource.latest('/jobs/j1/gpu-metrics/stream')).toBeDefined());
    const metrics = FakeEventSource.latest('/jobs/j1/gpu-metrics/stream')!;
    const cardAt = (index: number) => ({
      node: 'gpu-node-1',
      index,
      uuid: `GPU-${index}`,
      model: 'NVIDIA A100 80GB',
      pod: 'c-j1-main-0',
      utilisation: 1,
      memoryUsedMiB: 10,
      memoryTotalMiB: 81920,
      powerWatts: 60,
      temperatureC: 30,
    });
    act(() =>
      metrics.emit(
        'window',
        JSON.stringify({
          job: 'j1',
          stepSeconds: 5,
          samples: [{ at: '2026-11-30T12:00:00Z', cards: [cardAt(0), cardAt(1)] }],
          unavailable: null,
        }),
      ),
    );
    expect(await screen.findAllByTestId('job-gpu-series')).toHaveLength(2);
    expect((await screen.findByTestId('job-idle-warning')).dataset.stage).toBe('warned');
    expect(api.getJobConnect).toHaveBeenCalledWith('j1', expect.anything());
    // Both the chart's threshold and the warning read the same answer.
    expect(api.getJobGpuUtilisation).toHaveBeenCalledTimes(1);
    vi.unstubAllGlobals();
  });

  it('neither connects to nor charts a job that does not run or holds no GPUs', async () => {
    api.getJobConnect.mockClear();
    api.getJobGpuUtilisation.mockClear();
    api.getJob.mockResolvedValue(failed);
    renderAt('/jobs/j1');
    await screen.findByTestId('job-exits');
    expect(api.getJobConnect).not.toHaveBeenCalled();
    cleanup();

    api.getJob.mockResolvedValue(running);
    renderAt('/jobs/j1');
    await screen.findByTestId('job-logs');
    await waitFor(() => expect(api.getJobConnect).toHaveBeenCalledWith('j1', expect.anything()));
    // Not reachable for this viewer: no section.
    expect(screen.queryByTestId('job-connect')).toBeNull();
    expect(screen.queryByTestId('job-gpu')).toBeNull();
    expect(api.getJobGpuUtilisation).not.toHaveBeenCalled();
  });

  it("links the working directory to the file manager where it is one of the job's spaces", async () => {
    api.getJob.mockResolvedValue({ ...running, spec: { ...running.spec, workingDir: '/crater/user/runs/7' } });
    renderAt('/jobs/j1');
    const dir = await screen.findByTestId('job-working-dir');
    expect(within(dir).getByRole('link', { name: '/crater/user/runs/7' }).getAttribute('href')).toBe('/files/user/runs/7');
  });

  it("shows another person's own working directory without a link, and a mount-less one as text", async () => {
    api.getJob.mockResolvedValue({ ...running, spec: { ...running.spec, workingDir: '/crater/user/runs/7' } });
    renderAt('/jobs/j1', 'bob');
    const dir = await screen.findByTestId('job-working-dir');
    expect(dir.textContent).toContain('/crater/user/runs/7');
    expect(within(dir).queryByRole('link')).toBeNull();
  });

  it('shows the nodes a job names, and nothing when it names none', async () => {
    api.getJob.mockResolvedValue({ ...running, spec: { ...running.spec, nodes: { avoid: ['a100-4', 'a100-7'] } } });
    renderAt('/jobs/j1');
    const nodes = await screen.findByTestId('job-nodes');
    expect(nodes.textContent).toBe('never a100-4, a100-7');
    cleanup();
    api.getJob.mockResolvedValue({ ...running, spec: { ...running.spec, nodes: { use: ['a100-1'] } } });
    renderAt('/jobs/j1');
    expect((await screen.findByTestId('job-nodes')).textContent).toBe('only a100-1');
    cleanup();
    api.getJob.mockResolvedValue(running);
    renderAt('/jobs/j1');
    await screen.findByTestId('job-detail');
    expect(screen.queryByTestId('job-nodes')).toBeNull();
  });

  it('saves the job as a template shared with its account', async () => {
    api.getJob.mockResolvedValue(running);
    api.saveJobAsTemplate.mockResolvedValue({
      id: 't9',
      name: 'My DDP',
      description: '',
      kind: 'custom',
      builtin: false,
      visibility: 'account',
      account: 'vision-lab',
      owner: 'alice',
      version: 1,
      updatedAt: '2025-03-01T12:00:00Z',
      parameters: [],
      spec: {},
      canEdit: true,
    });
    renderAt('/jobs/j1');
    fireEvent.click(await screen.findByTestId('job-save-template'));
    const name = screen.getByTestId('template-name') as HTMLInputElement;
    expect(name.value).toBe('train-resnet');
    // A name over the limit is kept as typed and refused with the limit, not cut.
    fireEvent.change(name, { target: { value: 't'.repeat(150) } });
    expect(name.value).toHaveLength(150);
    expect(screen.getByText('Too long: at most 100 characters (this has 150).')).toBeTruthy();
    fireEvent.click(screen.getByTestId('template-save-confirm'));
    expect(api.saveJobAsTemplate).not.toHaveBeenCalled();
    fireEvent.change(name, { target: { value: ' My DDP ' } });
    fireEvent.change(screen.getByTestId('template-visibility'), { target: { value: 'account' } });
    fireEvent.click(screen.getByTestId('template-save-confirm'));
    const saved = await screen.findByTestId('job-template-saved');
    expect(within(saved).getByRole('link').getAttribute('href')).toBe('/templates');
    expect(api.saveJobAsTemplate).toHaveBeenCalledWith('j1', {
      name: 'My DDP',
      description: '',
      visibility: 'account',
      account: 'vision-lab',
    });
  });

  it('fetches the manifests when opened', async () => {
    api.getJob.mockResolvedValue(running);
    renderAt('/jobs/j1');
    const details = (await screen.findByTestId('job-manifests')) as HTMLDetailsElement;
    expect(api.getJobManifests).not.toHaveBeenCalled();
    details.open = true;
    fireEvent(details, new Event('toggle'));
    expect((await screen.findByTestId('job-manifests-yaml')).textContent).toContain('kind: Job');
    expect(screen.getByTestId('job-manifests-copy')).toBeTruthy();
  });
});

describe('JobDetailPage live', () => {
  it('applies job events from the stream of the job', async () => {
    installFakeEventSource();
    api.getJob.mockResolvedValue(running);
    renderAt('/jobs/j1');
    await screen.findByTestId('job-detail');
    const stream = FakeEventSource.latest('/api/v1/events');
    expect(stream?.url).toBe('/api/v1/events?topics=job%3Aj1');
    api.getJob.mockResolvedValue({ ...running, job: { ...running.job, state: 'Stopping' } });
    act(() => {
      stream?.open();
      stream?.emit('job', JSON.stringify({ ...running.job, state: 'Stopping' }));
    });
    await waitFor(() => expect(screen.getByTestId('job-state').dataset.state).toBe('Stopping'));
    expect(screen.queryByTestId('job-stop')).toBeNull();
  });

  it('follows the log, and refills it when the stream reconnects', async () => {
    installFakeEventSource();
    api.getJob.mockResolvedValue(running);
    renderAt('/jobs/j1');
    // Followed at once, no click and no Refresh: the box says it is connecting until the first line.
    expect(((await screen.findByTestId('job-log-follow')) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('job-log-lines').textContent).toBe('Connecting to the log stream…');
    expect(screen.queryByTestId('job-log-refresh')).toBeNull();
    const first = FakeEventSource.latest('/logs/stream');
    expect(first?.url).toBe('/api/v1/jobs/j1/logs/stream?pod=j1-main-0');
    act(() => {
      first?.open();
      first?.emit('message', 'epoch 1');
      first?.emit('message', 'epoch 2');
    });
    await waitFor(() => expect(screen.getByTestId('job-log-lines').textContent).toBe('epoch 1\nepoch 2'));
    expect(screen.getByTestId('job-log-stream').dataset.status).toBe('live');

    act(() => first?.fail(false));
    expect(first?.readyState).toBe(FakeEventSource.CLOSED);
    await waitFor(() => expect(FakeEventSource.latest('/logs/stream')).not.toBe(first), { timeout: 3000 });
    const second = FakeEventSource.latest('/logs/stream');
    act(() => {
      second?.open();
      second?.emit('message', 'epoch 1');
      second?.emit('message', 'epoch 2');
      second?.emit('message', 'epoch 3');
    });
    await waitFor(() => expect(screen.getByTestId('job-log-lines').textContent).toBe('epoch 1\nepoch 2\nepoch 3'));
  });
});
