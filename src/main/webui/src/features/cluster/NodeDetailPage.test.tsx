import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import type { NodeDetail, GpuHealth } from '../../api/types';
import { makeNode } from '../../test/fixtures';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { NodeDetailPage } from './NodeDetailPage';
import { NodeTable } from './NodeTable';

afterEach(() => vi.unstubAllGlobals());

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

const CORDONED = makeNode('a100-0', {
  schedulable: false,
  cordon: { reason: 'fan replacement', by: 'ada', at: '2026-12-02T06:00:00Z' },
  taints: [{ key: 'gpu', value: 'broken', effect: 'NoSchedule' }],
  labels: { 'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB', zone: 'a' },
});

/** A cordoned A100 node running one Crater job's pod and an exporter, with a warning about it. */
const DETAIL: NodeDetail = {
  node: CORDONED,
  conditions: [
    {
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
      lastTransitionTime: '2026-12-01T08:00:00Z',
    },
    { type: 'MemoryPressure', status: 'False', reason: null, message: null, lastTransitionTime: null },
  ],
  pods: [
    {
      namespace: 'crater-jobs',
      name: 'c-j7k3f9-main-0',
      phase: 'Running',
      job: 'j7k3f9',
      cpuMilli: 4000,
      memoryBytes: 16 * GiB,
      accelerators: 2,
      createdAt: ago(2 * 3600 + 5 * 60 + 10),
    },
    {
      namespace: 'kube-system',
      name: 'dcgm-exporter-x2',
      phase: 'Running',
      job: null,
      cpuMilli: 100,
      memoryBytes: 128 * MiB,
      accelerators: 0,
      createdAt: ago(3 * 86_400 + 4 * 3600 + 30),
    },
  ],
  jobs: [{ id: 'j7k3f9', name: 'ann-train', state: 'Running', owner: 'ann', account: 'vision-lab', pods: 1 }],
  events: [
    {
      type: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node a100-0 status is now: NodeNotReady',
      count: 3,
      lastSeen: ago(300),
      source: 'node-controller',
    },
    {
      type: 'Normal',
      reason: 'NodeReady',
      message: 'Node a100-0 status is now: NodeReady',
      count: 1,
      lastSeen: ago(240),
      source: 'kubelet',
    },
  ],
  eventsUnavailable: null,
};

function JobMarker() {
  return <p data-testid="job-page">job {useParams().id}</p>;
}

type FetchRoutes = Parameters<typeof mockFetch>[0];

function renderAt(path: string, routes: FetchRoutes) {
  const sent = mockFetch(routes);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/admin/nodes" element={<NodeTable items={[makeNode('a100-0')]} />} />
          <Route path="/admin/nodes/:name" element={<NodeDetailPage />} />
          <Route path="/jobs/:id" element={<JobMarker />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

/** A node whose cards never reported anything. */
const HEALTHY: GpuHealth = { node: 'a100-0', state: 'HEALTHY', since: null, reasons: [], clearedAt: null, clearedBy: null, evidence: [] };

const detailOf = (answer: FetchRoutes[string], health: FetchRoutes[string] = json(HEALTHY)): FetchRoutes => ({
  'GET /api/v1/admin/nodes/a100-0': answer,
  'GET /api/v1/admin/nodes/a100-0/health': health,
});

describe('the node detail page', () => {
  it('is reached by clicking a node in the node table', async () => {
    const sent = renderAt('/admin/nodes', detailOf(json(DETAIL)));
    fireEvent.click(screen.getByTestId('node-link'));
    expect((await screen.findByTestId('page-title')).textContent).toBe('a100-0');
    await screen.findByTestId('node-health-state');
    expect(sent.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /api/v1/admin/nodes/a100-0',
      'GET /api/v1/admin/nodes/a100-0/health',
    ]);
  });

  it('shows the status, the allocation with units, the jobs, the pods with their requests and age, conditions and events', async () => {
    renderAt('/admin/nodes/a100-0', detailOf(json(DETAIL)));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByTestId('node-detail');
    expect(screen.getByTestId('node-detail-state').dataset.status).toBe('Cordoned');
    expect(screen.getByTestId('node-detail-cordon').textContent).toMatch(/^Cordoned by ada at .+: fan replacement$/);
    expect(screen.getByTestId('node-detail-taints').textContent).toBe('gpu=broken:NoSchedule');
    expect(
      within(screen.getByTestId('node-detail-labels'))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(['nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB', 'zone=a']);
    expect(screen.getByTestId('node-detail-accelerators-text').textContent).toBe('2 / 8 devices');
    expect(screen.getByTestId('node-detail-cpu-text').textContent).toBe('4 / 64 cores');
    expect(screen.getByTestId('node-detail-memory-text').textContent).toBe('16 / 512 GiB');
    const bar = within(screen.getByTestId('node-detail-accelerators')).getByRole('progressbar');
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemax')]).toEqual(['2', '8']);

    const job = screen.getByTestId('node-job');
    expect(job.textContent).toContain('ann-train');
    expect(job.textContent).toContain('ann');
    expect(job.textContent).toContain('vision-lab');
    expect(within(job).getByTestId('status-badge').dataset.status).toBe('Running');

    const [jobPod, exporter] = screen.getAllByTestId('node-pod');
    expect(jobPod!.dataset.name).toBe('c-j7k3f9-main-0');
    expect(within(jobPod!).getByTestId('node-pod-cpu').textContent).toBe('4 cores');
    expect(within(jobPod!).getByTestId('node-pod-memory').textContent).toBe('16 GiB');
    expect(within(jobPod!).getByTestId('node-pod-accelerators').textContent).toBe('2 × NVIDIA A100 80GB');
    expect(jobPod!.textContent).toContain('2h 5m');
    expect(within(exporter!).getByTestId('node-pod-cpu').textContent).toBe('0.1 cores');
    expect(within(exporter!).getByTestId('node-pod-memory').textContent).toBe('128 MiB');
    expect(within(exporter!).getByTestId('node-pod-accelerators').textContent).toBe('—');
    expect(exporter!.textContent).toContain('none');
    expect(exporter!.textContent).toContain('3d 4h');
    expect(screen.getByText('Pods bound to this node (2)')).toBeTruthy();

    expect(screen.getAllByTestId('node-condition').map((c) => [c.dataset.type, c.dataset.status])).toEqual([
      ['Ready', 'True'],
      ['MemoryPressure', 'False'],
    ]);
    const [warning, normal] = screen.getAllByTestId('node-event');
    expect(warning!.dataset.type).toBe('Warning');
    expect(within(warning!).getByTestId('node-event-count').textContent).toBe('3 times');
    expect(warning!.textContent).toContain('Node a100-0 status is now: NodeNotReady');
    expect(warning!.textContent).toContain('5m ago');
    expect(within(normal!).getByTestId('node-event-count').textContent).toBe('once');
  });

  it('links the jobs and the pods of a job to the job page', async () => {
    renderAt('/admin/nodes/a100-0', detailOf(json(DETAIL)));
    await screen.findByTestId('node-detail');
    expect(screen.getByTestId('node-job-link').getAttribute('href')).toBe('/jobs/j7k3f9');
    expect(screen.getAllByTestId('node-pod-job').map((a) => a.getAttribute('href'))).toEqual(['/jobs/j7k3f9']);
    fireEvent.click(screen.getByTestId('node-job-link'));
    expect((await screen.findByTestId('job-page')).textContent).toBe('job j7k3f9');
  });

  it('says so when there are no pods, no jobs, no conditions and no events', async () => {
    const empty: NodeDetail = { ...DETAIL, node: makeNode('a100-0'), conditions: [], pods: [], jobs: [], events: [] };
    renderAt('/admin/nodes/a100-0', detailOf(json(empty)));
    await screen.findByTestId('node-health-state');
    const texts = screen.getAllByTestId('empty-state').map((e) => e.textContent);
    expect(texts).toEqual([
      'No card errors or failed jobs are recorded for this node.',
      'No Crater job has pods on this node.',
      'No pods are bound to this node.',
      'The node reports no conditions.',
      'No events about this node.',
    ]);
    expect(screen.getByTestId('node-detail-taints').textContent).toBe('No taints');
    expect(screen.queryByTestId('node-detail-cordon')).toBeNull();
    expect(screen.getByTestId('node-cordon')).toBeTruthy();
  });

  it('shows a notice instead of the events when they could not be read', async () => {
    renderAt('/admin/nodes/a100-0', detailOf(json({ ...DETAIL, events: [], eventsUnavailable: 'events is forbidden' })));
    expect((await screen.findByTestId('node-events-unavailable')).textContent).toBe(
      "The node's events could not be read: events is forbidden",
    );
    expect(screen.queryByTestId('node-events')).toBeNull();
    expect(screen.getAllByTestId('node-pod')).toHaveLength(2);
  });

  it('says there is no such node on a 404', async () => {
    renderAt('/admin/nodes/gone-0', { 'GET /api/v1/admin/nodes/gone-0': problem(404, 'NotFound', 'no node named gone-0') });
    const missing = await screen.findByTestId('node-detail-missing');
    expect(missing.textContent).toContain('No such node: gone-0');
    expect(within(missing).getByTestId('node-detail-back').getAttribute('href')).toBe('/admin/nodes');
  });

  it('says only platform admins see a node on a 403', async () => {
    renderAt('/admin/nodes/a100-0', detailOf(problem(403, 'NotPlatformAdmin', 'only platform administrators see a node')));
    expect((await screen.findByTestId('node-detail-forbidden')).textContent).toContain("Only platform administrators see a node's detail");
  });

  it('shows other failures with a retry that reads the node again', async () => {
    const sent = renderAt('/admin/nodes/a100-0', detailOf([problem(500, 'Internal', 'boom'), json(DETAIL)]));
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The node a100-0 could not be loaded');
    fireEvent.click(within(error).getByText('Retry'));
    await screen.findByTestId('node-detail');
    expect(sent.filter((r) => r.path === '/api/v1/admin/nodes/a100-0')).toHaveLength(2);
  });

  it('offers the node actions, and an uncordon shows the node as it became', async () => {
    let held = DETAIL;
    const uncordoned = makeNode('a100-0');
    const sent = renderAt('/admin/nodes/a100-0', {
      ...detailOf(() => json(held)),
      'GET /api/v1/cluster/nodes': json({ items: [uncordoned] }),
      'POST /api/v1/admin/nodes/a100-0/uncordon': () => {
        held = { ...DETAIL, node: uncordoned };
        return json(uncordoned);
      },
    });
    fireEvent.click(await screen.findByTestId('node-uncordon'));
    await waitFor(() => expect(screen.queryByTestId('node-detail-cordon')).toBeNull());
    expect(screen.getByTestId('node-detail-state').dataset.status).toBe('Ready');
    expect(screen.getByTestId('node-cordon')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST' && r.path === '/api/v1/admin/nodes/a100-0/uncordon')).toBe(true);
  });
});
