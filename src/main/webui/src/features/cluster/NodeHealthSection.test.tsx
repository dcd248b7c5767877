import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { ClusterNode, NodeDetail, GpuHealth } from '../../api/types';
import { makeNode } from '../../test/fixtures';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { NodeDetailPage } from './NodeDetailPage';

afterEach(() => vi.unstubAllGlobals());

const SINCE = '2026-12-02T06:00:00Z';

/** a100-4 as the node list shows it once Crater quarantined it: cordoned by crater:gpu-health, with the reason. */
const QUARANTINED: ClusterNode = makeNode('a100-4', {
  schedulable: false,
  cordon: { reason: 'GPU quarantine: GPU 3 reported XID 79, which needs the card reset or replaced', by: 'crater:gpu-health', at: SINCE },
  health: { state: 'quarantined', reason: 'GPU 3 reported XID 79, which needs the card reset or replaced', since: SINCE },
});

const detail = (node: ClusterNode): NodeDetail => ({ node, conditions: [], pods: [], jobs: [], events: [], eventsUnavailable: null });

/** Its health: XID 79 on GPU 3 and three failed jobs, cleared once before. */
const HEALTH: GpuHealth = {
  node: 'a100-4',
  state: 'QUARANTINED',
  since: SINCE,
  reasons: [
    {
      code: 'GpuXidFatal',
      message: 'GPU 3 reported XID 79, which needs the card reset or replaced',
      numbers: { gpu: 3, xid: 79 },
    },
    {
      code: 'JobsFailingOnNode',
      message: '3 jobs failed on the node within 3600 s',
      numbers: { jobs: 3, suspectAt: 3, quarantineAt: 6, windowSeconds: 3600 },
    },
  ],
  clearedAt: '2026-11-20T09:30:00Z',
  clearedBy: 'ada',
  evidence: [
    { kind: 'XID', at: SINCE, gpu: 3, value: 79, job: 'j7k3f9' },
    { kind: 'ECC_DBE', at: '2026-12-02T05:59:00Z', gpu: 3, value: 2, job: null },
    { kind: 'JOB_FAILED', at: '2026-12-02T05:58:00Z', gpu: null, value: 0, job: 'jab12c' },
  ],
};

const HEALED: GpuHealth = {
  ...HEALTH,
  state: 'HEALTHY',
  since: null,
  reasons: [],
  clearedAt: '2026-12-02T08:00:00Z',
  clearedBy: 'root',
  evidence: [],
};

type Routes = Parameters<typeof mockFetch>[0];

function renderNode(routes: Routes) {
  const sent = mockFetch({ 'GET /api/v1/cluster/nodes': json({ items: [QUARANTINED] }), ...routes });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/admin/nodes/a100-4']}>
        <Routes>
          <Route path="/admin/nodes/:name" element={<NodeDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

describe("a node's GPU health on its detail page", () => {
  it('says in words that Crater cordoned the node because a card reported errors, with the reason and since when', async () => {
    renderNode({ 'GET /api/v1/admin/nodes/a100-4': json(detail(QUARANTINED)), 'GET /api/v1/admin/nodes/a100-4/health': json(HEALTH) });
    const badge = await screen.findByTestId('node-health');
    expect(badge.dataset.state).toBe('quarantined');
    expect(within(badge).getByTestId('status-badge').textContent).toBe('GPUs quarantined');
    expect(within(badge).getByTestId('node-health-text').textContent).toMatch(
      /^Crater cordoned this node because a card reported errors: GPU 3 reported XID 79, which needs the card reset or replaced \(since .+\)\. No new pods are placed on it until a platform admin clears it\.$/,
    );
  });

  it('shows the state, since, the reasons with their numbers, the last clear and the evidence', async () => {
    renderNode({ 'GET /api/v1/admin/nodes/a100-4': json(detail(QUARANTINED)), 'GET /api/v1/admin/nodes/a100-4/health': json(HEALTH) });
    expect((await screen.findByTestId('node-health-state')).dataset.state).toBe('QUARANTINED');
    expect(screen.getByTestId('node-health-explain').textContent).toContain('Crater cordoned this node because a card reported errors');
    expect(screen.getByTestId('node-health-since').textContent).not.toBe('—');
    expect(screen.getAllByTestId('node-health-reason').map((r) => [r.dataset.code, r.textContent])).toEqual([
      ['GpuXidFatal', 'GPU 3 reported XID 79, which needs the card reset or replaced'],
      ['JobsFailingOnNode', '3 jobs failed on the node within 1 h (3 make it suspect, 6 quarantine it)'],
    ]);
    expect(screen.getByTestId('node-health-cleared').textContent).toMatch(/^by ada at .+/);

    const [xid, ecc, failed] = screen.getAllByTestId('node-evidence');
    expect(xid!.dataset.kind).toBe('XID');
    expect(xid!.textContent).toContain('GPU 3');
    expect(xid!.textContent).toContain('XID 79');
    expect(within(xid!).getByTestId('node-evidence-job').getAttribute('href')).toBe('/jobs/j7k3f9');
    expect(ecc!.textContent).toContain('ECC (uncorrectable)');
    expect(ecc!.textContent).toContain('2 errors');
    expect(within(ecc!).queryByTestId('node-evidence-job')).toBeNull();
    expect(failed!.textContent).toContain('Failed job');
    expect(within(failed!).getByTestId('node-evidence-job').getAttribute('href')).toBe('/jobs/jab12c');
  });

  it('clears with a required reason, then shows the node healthy and reads it again', async () => {
    let node = QUARANTINED;
    let health = HEALTH;
    const sent = renderNode({
      'GET /api/v1/admin/nodes/a100-4': () => json(detail(node)),
      'GET /api/v1/admin/nodes/a100-4/health': () => json(health),
      'POST /api/v1/admin/nodes/a100-4/health/clear': () => {
        node = makeNode('a100-4');
        health = HEALED;
        return json(HEALED);
      },
    });
    fireEvent.click(await screen.findByTestId('node-health-clear'));
    const dialog = screen.getByTestId('node-health-clear-dialog');
    expect(dialog.textContent).toContain("the quarantine's cordon is lifted");
    const submit = within(dialog).getByTestId('node-health-clear-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('node-health-clear-reason'), { target: { value: '  card reseated ' } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('node-health-state').dataset.state).toBe('HEALTHY'));
    expect(screen.queryByTestId('node-health-clear-dialog')).toBeNull();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'card reseated' });
    expect(screen.getByTestId('node-health-cleared').textContent).toMatch(/^by root at /);
    // The node itself is read again: its quarantine cordon and badge are gone.
    await waitFor(() => expect(screen.queryByTestId('node-health')).toBeNull());
    expect(screen.queryByTestId('node-detail-cordon')).toBeNull();
    expect(sent.filter((r) => r.method === 'GET' && r.path === '/api/v1/admin/nodes/a100-4').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's field error under the reason, and says a reason too long before sending", async () => {
    const sent = renderNode({
      'GET /api/v1/admin/nodes/a100-4': json(detail(QUARANTINED)),
      'GET /api/v1/admin/nodes/a100-4/health': json(HEALTH),
      'POST /api/v1/admin/nodes/a100-4/health/clear': problem(400, 'InvalidClear', 'a reason is required', [
        { field: 'reason', message: 'a reason is required' },
      ]),
    });
    fireEvent.click(await screen.findByTestId('node-health-clear'));
    const reason = screen.getByTestId('node-health-clear-reason');
    fireEvent.change(reason, { target: { value: 'x'.repeat(257) } });
    expect(screen.getByTestId('node-health-clear-field-error').textContent).toBe('Too long: at most 256 characters (this has 257).');
    expect((screen.getByTestId('node-health-clear-submit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(reason, { target: { value: 'fixed' } });
    fireEvent.click(screen.getByTestId('node-health-clear-submit'));
    expect((await screen.findByTestId('node-health-clear-field-error')).textContent).toBe('a reason is required');
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('node-health-clear-dialog')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('offers no clear for a healthy node, and shows a failed read with a retry', async () => {
    const sent = renderNode({
      'GET /api/v1/admin/nodes/a100-4': json(detail(makeNode('a100-4'))),
      'GET /api/v1/admin/nodes/a100-4/health': [problem(500, 'Internal', 'boom'), json(HEALED)],
    });
    const failed = await screen.findByTestId('node-health-error');
    expect(failed.textContent).toContain("The node's GPU health could not be loaded");
    fireEvent.click(within(failed).getByText('Retry'));
    expect((await screen.findByTestId('node-health-state')).dataset.state).toBe('HEALTHY');
    expect(screen.getByTestId('node-health-explain').textContent).toBe('No card error or failed job counts against this node.');
    expect(screen.queryByTestId('node-health-clear')).toBeNull();
    expect(screen.queryByTestId('node-evidence-table')).toBeNull();
    expect(within(screen.getByTestId('node-health-section')).getByTestId('empty-state').textContent).toBe(
      'No card errors or failed jobs are recorded for this node.',
    );
    expect(sent.filter((r) => r.path.endsWith('/health'))).toHaveLength(2);
  });
});
