import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AccountSummary, ClusterNode } from '../../api/types';
import { makeNode } from '../../test/fixtures';
import { json, mockFetch, problem } from '../../test/mockFetch';
import { NodeSection } from './ClusterSections';

afterEach(() => vi.unstubAllGlobals());

/** The page over a node list the server holds; a change the server answers with replaces its node. */
function section(nodes: ClusterNode[], routes: Parameters<typeof mockFetch>[0] = {}) {
  let held = nodes;
  const changed = Object.fromEntries(
    Object.entries(routes).map(([route, answer]) => [
      route,
      typeof answer === 'object' && !Array.isArray(answer) && answer.status === 200
        ? () => {
            const body = answer.body as ClusterNode;
            held = held.map((n) => (n.name === body.name ? body : n));
            return answer;
          }
        : answer,
    ]),
  );
  const sent = mockFetch({ 'GET /api/v1/cluster/nodes': () => json({ items: held }), ...changed });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NodeSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

const cordoned = (name: string): ClusterNode =>
  makeNode(name, { schedulable: false, cordon: { reason: 'fan replacement', by: 'ada', at: '2026-12-02T06:00:00Z' } });

describe('node administration on the nodes page', () => {
  it('cordons with the reason typed, and shows who cordoned and why', async () => {
    const sent = section([makeNode('rtx-0')], { 'POST /api/v1/admin/nodes/rtx-0/cordon': json(cordoned('rtx-0')) });
    fireEvent.click(await screen.findByTestId('node-cordon'));
    const submit = screen.getByTestId('node-reason-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('node-reason'), { target: { value: ' fan replacement ' } });
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('node-cordon-reason').textContent).toBe('Cordoned by ada: fan replacement'));
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'fan replacement' });
    expect(screen.getByTestId('node-uncordon')).toBeTruthy();
  });

  it('uncordons a cordoned node', async () => {
    const sent = section([cordoned('rtx-1')], { 'POST /api/v1/admin/nodes/rtx-1/uncordon': json(makeNode('rtx-1')) });
    fireEvent.click(await screen.findByTestId('node-uncordon'));
    await waitFor(() => expect(screen.queryByTestId('node-cordon-reason')).toBeNull());
    expect(sent.some((r) => r.method === 'POST' && r.path === '/api/v1/admin/nodes/rtx-1/uncordon')).toBe(true);
  });

  it('drains after confirming and says what was evicted, stopped and refused', async () => {
    section([makeNode('rtx-0')], {
      'POST /api/v1/admin/nodes/rtx-0/drain': json({
        node: cordoned('rtx-0'),
        evicted: ['crater-jobs/c-ab-0', 'web/w-1'],
        blocked: [{ namespace: 'web', pod: 'w-2', message: 'evicting it would violate its PodDisruptionBudget' }],
        kept: [{ namespace: 'kube-system', name: 'exporter', why: 'DaemonSet' }],
        stoppedJobs: ['ab'],
        requeued: {},
      }),
    });
    fireEvent.click(await screen.findByTestId('node-drain'));
    expect(screen.getByTestId('node-drain-dialog').textContent).toContain('NodeDrained');
    fireEvent.change(screen.getByTestId('node-reason'), { target: { value: 'kernel upgrade' } });
    fireEvent.click(screen.getByTestId('node-reason-submit'));
    const outcome = await screen.findByTestId('node-drain-outcome');
    expect(outcome.textContent).toContain('2 pods evicted.');
    expect(outcome.textContent).toContain('1 Crater job stopped.');
    expect(screen.getByTestId('node-drain-blocked').textContent).toContain('web/w-2');
    expect(outcome.textContent).toContain('kube-system/exporter (DaemonSet)');
  });

  it('drains with requeue when asked and names the copy of each stopped job', async () => {
    const sent = section([makeNode('a100-0')], {
      'POST /api/v1/admin/nodes/a100-0/drain': json({
        node: cordoned('a100-0'),
        evicted: ['crater-jobs/c-ab-0'],
        blocked: [],
        kept: [],
        stoppedJobs: ['jab', 'jcd'],
        requeued: { jab: 'jxy' },
      }),
    });
    fireEvent.click(await screen.findByTestId('node-drain'));
    fireEvent.click(screen.getByTestId('node-drain-requeue'));
    fireEvent.change(screen.getByTestId('node-reason'), { target: { value: 'memory test' } });
    fireEvent.click(screen.getByTestId('node-reason-submit'));
    const stopped = await screen.findByTestId('node-drain-stopped');
    expect(stopped.textContent).toContain('jab → jxy (waits again)');
    expect(stopped.textContent).toContain('jcd');
    const drain = sent.find((r) => r.method === 'POST' && r.path === '/api/v1/admin/nodes/a100-0/drain');
    expect(drain?.body).toEqual({ reason: 'memory test', requeue: true });
  });

  it('shows a refused label edit with its field errors, and an empty taint list as such', async () => {
    section([makeNode('cpu-0', { labels: { zone: 'a' } })], {
      'PATCH /api/v1/admin/nodes/cpu-0/labels': problem(400, 'InvalidLabels', 'the labels cannot be changed as given', [
        { field: 'set.bad key', message: 'label key name part must be …' },
      ]),
    });
    fireEvent.click(await screen.findByTestId('node-labels'));
    expect(screen.getAllByTestId('node-label').map((l) => l.textContent)).toEqual(['zone=aRemove']);
    expect(screen.getByTestId('node-taints-editor').textContent).toContain('The node has no taints.');
    fireEvent.change(screen.getByTestId('node-label-key'), { target: { value: 'bad key' } });
    fireEvent.click(screen.getByTestId('node-label-add'));
    const error = await screen.findByTestId('node-edit-error');
    expect(error.textContent).toContain('the labels cannot be changed as given');
    expect(error.textContent).toContain('set.bad key');
  });

  it('shows the loading, empty and error states of the node list', async () => {
    mockFetch({ 'GET /api/v1/cluster/nodes': problem(500, 'Internal', 'boom') });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <NodeSection />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(await screen.findByText('Could not load nodes.')).toBeTruthy();
  });
});

const account = (slug: string, kind: AccountSummary['kind'], archivedAt: string | null = null): AccountSummary => ({
  slug,
  name: slug.replace('-', ' '),
  kind,
  gid: 5000,
  expiresAt: null,
  archivedAt,
  members: 3,
});

/** A team account, a personal one and an archived team: only the first can be given a node. */
const ACCOUNTS = {
  items: [account('vision-lab', 'team'), account('u-ann', 'personal'), account('old-lab', 'team', '2026-01-01T00:00:00Z')],
  nextCursor: null,
};

const exclusive = (name: string): ClusterNode =>
  makeNode(name, {
    exclusive: { accountId: 7, account: 'vision-lab' },
    taints: [{ key: 'crater.io/exclusive', value: '7', effect: 'NoSchedule' }],
  });

describe('exclusive nodes and GPU health on the nodes page', () => {
  it('shows a badge for a node exclusive to an account, and the GPU health of a suspect node in words', async () => {
    section([
      exclusive('a100-0'),
      makeNode('a100-1', { health: { state: 'suspect', reason: 'GPU 1 reported hardware XID 63', since: '2026-12-02T06:00:00Z' } }),
    ]);
    const [first, second] = await screen.findAllByTestId('node-row');
    expect(within(first!).getByTestId('node-exclusive').textContent).toBe('Exclusive to vision-lab');
    expect(within(first!).queryByTestId('node-health')).toBeNull();
    expect(within(second!).queryByTestId('node-exclusive')).toBeNull();
    const health = within(second!).getByTestId('node-health');
    expect(health.dataset.state).toBe('suspect');
    expect(within(health).getByTestId('status-badge').textContent).toBe('GPUs suspect');
    expect(within(health).getByTestId('node-health-text').textContent).toMatch(
      /^A card may be failing: GPU 1 reported hardware XID 63 \(since .+\)\. Nothing is changed yet; more errors quarantine the node\.$/,
    );
  });

  it('makes a node exclusive to a chosen team account, offering only active team accounts', async () => {
    const sent = section([makeNode('a100-0')], {
      'GET /api/v1/accounts': json(ACCOUNTS),
      'PUT /api/v1/admin/nodes/a100-0/exclusive': json(exclusive('a100-0')),
    });
    fireEvent.click(await screen.findByTestId('node-make-exclusive'));
    const dialog = screen.getByTestId('node-exclusive-dialog');
    const select = within(dialog).getByTestId('node-exclusive-account') as HTMLSelectElement;
    await waitFor(() => expect(Array.from(select.options).map((o) => o.value)).toEqual(['', 'vision-lab']));
    const submit = within(dialog).getByTestId('node-exclusive-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(select, { target: { value: 'vision-lab' } });
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('node-exclusive').textContent).toBe('Exclusive to vision-lab'));
    expect(screen.queryByTestId('node-exclusive-dialog')).toBeNull();
    const put = sent.find((r) => r.method === 'PUT');
    expect([put?.path, put?.body]).toEqual(['/api/v1/admin/nodes/a100-0/exclusive', { account: 'vision-lab' }]);
    expect(screen.getByTestId('node-share')).toBeTruthy();
  });

  it('searches the accounts by the text typed, and says when no team account matches', async () => {
    const sent = section([makeNode('a100-0')], {
      'GET /api/v1/accounts': (req) => json(req.query.get('q') === 'zzz' ? { items: [], nextCursor: null } : ACCOUNTS),
    });
    fireEvent.click(await screen.findByTestId('node-make-exclusive'));
    fireEvent.change(screen.getByTestId('node-exclusive-search'), { target: { value: 'zzz' } });
    expect((await screen.findByTestId('node-exclusive-no-accounts')).textContent).toBe('No team account matches.');
    expect(sent.some((r) => r.path === '/api/v1/accounts' && r.query.get('q') === 'zzz')).toBe(true);
  });

  it("shows the server's refusal with its field error", async () => {
    section([makeNode('a100-0')], {
      'GET /api/v1/accounts': json(ACCOUNTS),
      'PUT /api/v1/admin/nodes/a100-0/exclusive': problem(409, 'AccountArchived', "account 'vision-lab' is archived", [
        { field: 'account', message: 'an active team account' },
      ]),
    });
    fireEvent.click(await screen.findByTestId('node-make-exclusive'));
    const select = screen.getByTestId('node-exclusive-account') as HTMLSelectElement;
    await waitFor(() => expect(select.options).toHaveLength(2));
    fireEvent.change(select, { target: { value: 'vision-lab' } });
    fireEvent.click(screen.getByTestId('node-exclusive-submit'));
    expect((await screen.findByTestId('node-exclusive-error')).textContent).toBe("account 'vision-lab' is archived");
    expect(screen.getByText('an active team account')).toBeTruthy();
    expect(select.getAttribute('aria-invalid')).toBe('true');
  });

  it('shares an exclusive node again', async () => {
    const sent = section([exclusive('a100-0')], { 'DELETE /api/v1/admin/nodes/a100-0/exclusive': json(makeNode('a100-0')) });
    fireEvent.click(await screen.findByTestId('node-share'));
    await waitFor(() => expect(screen.queryByTestId('node-exclusive')).toBeNull());
    expect(sent.some((r) => r.method === 'DELETE' && r.path === '/api/v1/admin/nodes/a100-0/exclusive')).toBe(true);
    expect(screen.getByTestId('node-make-exclusive')).toBeTruthy();
  });
});
