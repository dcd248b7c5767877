import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { FreeAccelerators, JobDetail, JobSummary, SubmitJob, Template } from '../../api/types';
import { json, mockFetch, problem, type SentRequest } from '../../test/mockFetch';
import { NewJobPage } from './NewJobPage';

afterEach(() => vi.unstubAllGlobals());

const CREATED: JobSummary = {
  id: 'j-new',
  name: 'train',
  kind: 'custom',
  state: 'Queued',
  account: 'u-alice',
  owner: 'alice',
  requests: {},
  borrowing: false,
  reasons: [],
  createdAt: '2026-12-02T00:00:00Z',
  startedAt: null,
  finishedAt: null,
};

/** The cluster's accelerator nodes as the free GPUs view lists them (read by every user). */
const FREE: FreeAccelerators = {
  models: [
    {
      model: 'nvidia-a100-80gb',
      displayName: 'NVIDIA A100 80GB',
      vendor: 'NVIDIA',
      memoryMiB: 81920,
      restricted: false,
      total: 16,
      free: 6,
      mostOnOneNode: 4,
      nodes: [
        { name: 'a100-1', total: 8, free: 4, memoryMiB: 81920, schedulable: true },
        { name: 'a100-0', total: 8, free: 2, memoryMiB: 81920, schedulable: true },
      ],
    },
  ],
  accounts: [],
};

/** A job resubmitted away from a node whose card failed: its spec avoids that node. */
const RESUBMITTED: JobDetail = {
  mounts: [],
  job: { ...CREATED, id: 'j-1', name: 'train', state: 'Failed' },
  spec: {
    name: 'train',
    kind: 'custom',
    image: 'python:3.12',
    command: ['python', 'train.py'],
    resources: { cpu: '2', memory: '8Gi' },
    priority: 'normal',
    nodes: { avoid: ['a100-4'] },
  },
  stateReason: null,
  stateMessage: null,
  history: [],
  template: null,
  sourceJob: null,
  pods: [],
  events: [],
  exits: [],
  permissions: { stop: false, delete: true, readLogs: true, resubmit: true },
};

const BATCH: Template = {
  id: 'batch',
  name: 'Batch job',
  description: '',
  kind: 'custom',
  builtin: true,
  visibility: 'public',
  account: null,
  owner: null,
  version: 2,
  updatedAt: '2026-01-01T00:00:00Z',
  canEdit: false,
  spec: { kind: 'custom', name: 'batch', image: 'python:3.12', command: ['python', 'run.py'] },
  parameters: [],
};

type Routes = Parameters<typeof mockFetch>[0];

function renderAt(url: string, routes: Routes = {}): SentRequest[] {
  const sent = mockFetch({
    'GET /api/v1/templates': json({ items: [] }),
    'GET /api/v1/cluster/free-accelerators': json(FREE),
    'GET /api/v1/jobs/j-1': json(RESUBMITTED),
    'GET /api/v1/templates/batch': json(BATCH),
    'POST /api/v1/jobs': json(CREATED, 201),
    ...routes,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/jobs/new', element: <NewJobPage /> },
      { path: '/jobs/:id', element: <p data-testid="job-page" /> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return sent;
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** A batch job the form would send as it is. */
function fillJob() {
  type('job-name', 'train');
  type('job-image', 'python:3.12');
  type('job-command', 'python train.py');
}

/** Types names into the nodes box and adds them with Enter. */
function addNodes(text: string) {
  const box = screen.getByTestId('job-nodes-input');
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter' });
}

const chips = () => screen.queryAllByTestId('job-node').map((c) => c.dataset.name);
const submitted = (sent: SentRequest[]) =>
  sent.filter((r) => r.method === 'POST' && r.path === '/api/v1/jobs').map((r) => r.body as SubmitJob);

describe("the job form's nodes", () => {
  it("sends only these nodes, suggesting the cluster's node names", async () => {
    const sent = renderAt('/jobs/new');
    fillJob();
    expect(screen.getByTestId('job-nodes').dataset.mode).toBe('any');
    expect(screen.queryByTestId('job-nodes-input')).toBeNull();
    fireEvent.click(screen.getByTestId('job-nodes-use'));
    const suggestions = screen.getByTestId('job-nodes-suggestions');
    await waitFor(() => expect(Array.from(suggestions.querySelectorAll('option')).map((o) => o.value)).toEqual(['a100-0', 'a100-1']));
    addNodes('a100-1, a100-2');
    fireEvent.click(screen.getByTestId('job-nodes-add'));
    expect(chips()).toEqual(['a100-1', 'a100-2']);
    // A chosen node is no longer suggested.
    expect(Array.from(suggestions.querySelectorAll('option')).map((o) => o.value)).toEqual(['a100-0']);
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    expect(submitted(sent)[0]?.nodes).toEqual({ use: ['a100-1', 'a100-2'] });
  });

  it('sends never these nodes, and nothing once any node is chosen again', async () => {
    const sent = renderAt('/jobs/new');
    fillJob();
    fireEvent.click(screen.getByTestId('job-nodes-avoid'));
    addNodes('a100-4');
    fireEvent.click(screen.getByTestId('job-dryrun'));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')?.body).toMatchObject({ nodes: { avoid: ['a100-4'] } });
    fireEvent.click(screen.getByTestId('job-nodes-any'));
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    expect(submitted(sent).at(-1)).not.toHaveProperty('nodes');
  });

  it('checks the names before sending: at least one, node names only, each once, at most 64', () => {
    const sent = renderAt('/jobs/new');
    fillJob();
    fireEvent.click(screen.getByTestId('job-nodes-use'));
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(screen.getByTestId('job-nodes-error').textContent).toBe('Name at least one node, or choose any node.');

    addNodes('a100-1 GPU_9');
    expect(screen.getAllByTestId('job-node').map((c) => c.dataset.invalid)).toEqual(['false', 'true']);
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(screen.getByTestId('job-nodes-error').textContent).toBe("GPU_9 is not a node's name: lowercase letters, digits, - and . only.");
    fireEvent.click(screen.getByLabelText('Remove GPU_9'));

    addNodes(Array.from({ length: 64 }, (_, i) => `n-${i}`).join(' '));
    expect(chips()).toHaveLength(65);
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(screen.getByTestId('job-nodes-error').textContent).toBe('At most 64 nodes (65 given).');
    expect(screen.getByTestId('job-form-invalid')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it("shows the server's field errors about the nodes under the field, naming the node", async () => {
    renderAt('/jobs/new', {
      'POST /api/v1/jobs': problem(400, 'InvalidJob', 'the job cannot be submitted as given', [
        { field: 'nodes.use', message: 'no node named a100-9' },
        { field: 'nodes.use[1]', message: 'a100-9 is named twice' },
      ]),
    });
    fillJob();
    fireEvent.click(screen.getByTestId('job-nodes-use'));
    addNodes('a100-1 a100-9');
    fireEvent.click(screen.getByTestId('job-submit'));
    expect((await screen.findByTestId('job-nodes-error')).textContent).toBe('no node named a100-9; a100-9: a100-9 is named twice');
    const box = screen.getByTestId('form-error');
    expect(box.textContent).toBe('Some fields are not valid.');
    expect(box.textContent).not.toContain('no node named');
  });

  it('keeps the nodes of a cloned job, such as the node a resubmission avoids', async () => {
    const sent = renderAt('/jobs/new?from=j-1');
    const field = await screen.findByTestId('job-nodes');
    expect(field.dataset.mode).toBe('avoid');
    expect((within(field).getByTestId('job-nodes-avoid') as HTMLInputElement).checked).toBe(true);
    expect(chips()).toEqual(['a100-4']);
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    expect(submitted(sent)[0]).toMatchObject({ nodes: { avoid: ['a100-4'] }, sourceJob: 'j-1' });
  });

  it("sends the template form's nodes with the template, and checks them there too", async () => {
    const sent = renderAt('/jobs/new?template=batch');
    await screen.findByTestId('template-form');
    fireEvent.click(screen.getByTestId('job-nodes-use'));
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(screen.getByTestId('job-nodes-error').textContent).toBe('Name at least one node, or choose any node.');
    addNodes('a100-0');
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    expect(submitted(sent)).toEqual([
      { name: 'Batch job', priority: 'normal', template: { id: 'batch', version: 2, parameters: {} }, nodes: { use: ['a100-0'] } },
    ]);
  });
});
