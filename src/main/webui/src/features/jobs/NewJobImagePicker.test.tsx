import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { AcceleratorModel, Image, JobSummary, SubmitJob, Template } from '../../api/types';
import { json, mockFetch, problem, type SentRequest } from '../../test/mockFetch';
import { NewJobPage } from './NewJobPage';

afterEach(() => vi.unstubAllGlobals());

const CREATED: JobSummary = {
  id: 'j-new',
  name: 'train',
  kind: 'pytorch',
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

function model(key: string, displayName: string, vendor: string): AcceleratorModel {
  return {
    key,
    displayName,
    vendor,
    resource: vendor === 'NVIDIA' ? 'nvidia.com/gpu' : 'huawei.com/Ascend910',
    labelKey: null,
    labelValue: null,
    restricted: false,
    memoryMiB: null,
    memoryResource: null,
    retired: false,
    retiredAt: null,
  };
}

const MODELS = [model('a100', 'NVIDIA A100 80GB', 'NVIDIA'), model('910b', 'Ascend 910B', 'Huawei')];

function image(id: string, reference: string, over: Partial<Image>): Image {
  return {
    id,
    reference,
    registry: reference.split('/')[0]!,
    repository: reference.split('/').slice(1).join('/'),
    owner: 'ada',
    description: '',
    tags: ['latest'],
    cudaVersion: '',
    architectures: ['amd64'],
    vendors: [],
    kinds: [],
    visibility: 'public',
    account: null,
    sharedWith: { users: [], accounts: [] },
    checks: [],
    createdAt: '2026-12-01T10:00:00Z',
    updatedAt: '2026-12-01T10:00:00Z',
    mayEdit: false,
    ...over,
  };
}

const checked = (tag: string, result: 'ok' | 'not-found' | 'unauthorized', detail: string | null = null) => ({
  tag,
  result,
  detail,
  digest: result === 'ok' ? 'sha256:1f2e' : null,
  mediaType: null,
  checkedAt: '2026-12-01T11:00:00Z',
});

const TRAINER = image('im_trainer1', 'ghcr.io/lab/trainer', {
  description: 'PyTorch trainer',
  tags: ['2.3-cuda12.1', 'gone'],
  cudaVersion: '12.1',
  architectures: ['amd64', 'arm64'],
  vendors: ['nvidia'],
  kinds: ['pytorch'],
  checks: [checked('2.3-cuda12.1', 'ok'), checked('gone', 'not-found', 'the registry has no manifest ghcr.io/lab/trainer:gone')],
});
const NOTEBOOK = image('im_notebook', 'quay.io/jupyter/pytorch-notebook', { vendors: ['nvidia'], kinds: ['jupyter'] });
const ASCEND = image('im_ascend01', 'registry.lab/ascend/torch', { vendors: ['huawei'], kinds: ['pytorch'] });
const TOOLS = image('im_tools001', 'docker.io/library/python', { tags: ['3.12'] });
const CATALOGUE = [TRAINER, NOTEBOOK, ASCEND, TOOLS];
const VENDOR: Record<string, string> = { a100: 'nvidia', '910b': 'huawei' };

/** The catalogue's list, keeping what fits as the server does: kinds include the kind or list none; vendors include the model's. */
function listImages(req: SentRequest) {
  const kind = req.query.get('kind');
  const vendor = req.query.get('accelerator') ? VENDOR[req.query.get('accelerator')!] : null;
  const items = CATALOGUE.filter(
    (i) => (!kind || i.kinds.length === 0 || i.kinds.includes(kind)) && (!vendor || i.vendors.includes(vendor)),
  );
  return json({ items, nextCursor: null });
}

type Routes = Parameters<typeof mockFetch>[0];

/** A template whose image and accelerator model are its parameters. */
const TRAIN: Template = {
  id: 'train',
  name: 'Training run',
  description: '',
  kind: 'pytorch',
  builtin: false,
  visibility: 'public',
  account: null,
  owner: 'ada',
  version: 1,
  updatedAt: '2026-12-01T00:00:00Z',
  canEdit: false,
  spec: {
    kind: 'pytorch',
    name: 'train',
    image: '${image}',
    command: ['python', 'train.py'],
    resources: { acceleratorModel: '${model}', accelerators: 1 },
  },
  parameters: [
    { name: 'image', label: 'Image', description: null, type: 'string', default: null, required: true, options: null },
    { name: 'model', label: 'Accelerator model', description: null, type: 'model', default: null, required: true, options: null },
  ],
};

function renderForm(routes: Routes = {}, url = '/jobs/new'): SentRequest[] {
  const sent = mockFetch({
    'GET /api/v1/templates': json({ items: [] }),
    'GET /api/v1/accelerator-models': json({ items: MODELS }),
    'GET /api/v1/cluster/accelerators': json({ items: [] }),
    'GET /api/v1/images': listImages,
    'GET /api/v1/templates/train': json(TRAIN),
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
const imageLists = (sent: SentRequest[]) => sent.filter((r) => r.method === 'GET' && r.path === '/api/v1/images');
const shown = () => screen.queryAllByTestId('image-pick-choice').map((c) => c.dataset.image);

/** A pytorch job on an A100, its models read. */
async function pytorchOnA100() {
  type('job-kind', 'pytorch');
  await waitFor(() => expect(screen.getByRole('option', { name: /NVIDIA A100 80GB/ })).toBeTruthy());
  type('job-accelerator-model', 'a100');
}

describe("the job form's image picker", () => {
  it('asks the catalogue for the images that fit the kind and accelerator, and lists each tag with its check', async () => {
    const sent = renderForm();
    await pytorchOnA100();
    expect(imageLists(sent)).toEqual([]);
    fireEvent.click(screen.getByTestId('image-pick-toggle'));
    await waitFor(() => expect(shown()).toEqual(['ghcr.io/lab/trainer:2.3-cuda12.1', 'ghcr.io/lab/trainer:gone']));
    const query = imageLists(sent).at(-1)!.query;
    expect(query.get('kind')).toBe('pytorch');
    expect(query.get('accelerator')).toBe('a100');
    expect(screen.getByTestId('image-pick-fits').textContent).toBe(
      'Catalogue images you can see that fit PyTorch (multi-node) jobs on NVIDIA A100 80GB (NVIDIA)',
    );

    const [ok, gone] = screen.getAllByTestId('image-pick-choice');
    expect(ok!.dataset.check).toBe('ok');
    expect(within(ok!).getByText('PyTorch trainer')).toBeTruthy();
    expect(within(ok!).getByText('CUDA 12.1 · amd64, arm64')).toBeTruthy();
    expect(within(ok!).getByText('Found')).toBeTruthy();
    expect(within(ok!).queryByText('Check failed')).toBeNull();
    expect(gone!.dataset.check).toBe('failed');
    expect(within(gone!).getByText('Not found')).toBeTruthy();
    expect(within(gone!).getByText('Check failed')).toBeTruthy();

    // Another vendor's model, then another kind without accelerator: each asks again and shows what fits.
    type('job-accelerator-model', '910b');
    await waitFor(() => expect(shown()).toEqual(['registry.lab/ascend/torch:latest']));
    expect(imageLists(sent).at(-1)!.query.get('accelerator')).toBe('910b');
    type('job-accelerator-model', '');
    type('job-kind', 'jupyter');
    await waitFor(() => expect(shown()).toEqual(['quay.io/jupyter/pytorch-notebook:latest', 'docker.io/library/python:3.12']));
    const last = imageLists(sent).at(-1)!.query;
    expect(last.get('kind')).toBe('jupyter');
    expect(last.has('accelerator')).toBe(false);
  });

  it('fills the Image field with reference:tag, which is what the submit sends', async () => {
    const sent = renderForm();
    await pytorchOnA100();
    type('job-name', 'train');
    type('job-command', 'python train.py');
    fireEvent.click(screen.getByTestId('image-pick-toggle'));
    fireEvent.click(await screen.findByText('ghcr.io/lab/trainer:2.3-cuda12.1'));
    expect((screen.getByTestId('job-image') as HTMLInputElement).value).toBe('ghcr.io/lab/trainer:2.3-cuda12.1');
    expect(screen.queryByTestId('image-pick-panel')).toBeNull();
    expect(screen.queryByTestId('image-pick-warning')).toBeNull();
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    const body = sent.find((r) => r.method === 'POST' && r.path === '/api/v1/jobs')!.body as SubmitJob;
    expect(body.image).toBe('ghcr.io/lab/trainer:2.3-cuda12.1');
    expect(body.resources).toMatchObject({ acceleratorModel: 'a100', accelerators: 1 });
  });

  it('warns under the field when the chosen tag failed its check, until the field is changed', async () => {
    renderForm();
    await pytorchOnA100();
    fireEvent.click(screen.getByTestId('image-pick-toggle'));
    fireEvent.click(await screen.findByText('ghcr.io/lab/trainer:gone'));
    const warning = screen.getByTestId('image-pick-warning');
    expect(warning.dataset.check).toBe('not-found');
    expect(
      within(warning).getByText('The last check of ghcr.io/lab/trainer:gone did not find it (Not found): the job may fail to pull it.'),
    ).toBeTruthy();
    expect(within(warning).getByText('the registry has no manifest ghcr.io/lab/trainer:gone')).toBeTruthy();
    // The field stays free text: typing another image drops the warning.
    type('job-image', 'python:3.12');
    expect(screen.queryByTestId('image-pick-warning')).toBeNull();
  });

  it('says when no catalogue image fits, and that any image may still be typed', async () => {
    renderForm({ 'GET /api/v1/images': json({ items: [], nextCursor: null }) });
    fireEvent.click(screen.getByTestId('image-pick-toggle'));
    expect((await screen.findByTestId('image-pick-empty')).textContent).toBe(
      'No catalogue image fits this kind and accelerator. You can still type any image; images are added on the Images page.',
    );
    type('job-image', 'my.registry/own:1');
    expect((screen.getByTestId('job-image') as HTMLInputElement).value).toBe('my.registry/own:1');
  });

  it('shows why the catalogue could not be read, and reads it again on retry', async () => {
    const sent = renderForm({
      'GET /api/v1/images': [problem(400, 'InvalidRequest', "no accelerator model 'gone'"), json({ items: [TOOLS], nextCursor: null })],
    });
    fireEvent.click(screen.getByTestId('image-pick-toggle'));
    const error = await screen.findByTestId('error-state');
    expect(within(error).getByText('The image catalogue could not be loaded')).toBeTruthy();
    expect(within(error).getByText("no accelerator model 'gone'")).toBeTruthy();
    fireEvent.click(within(error).getByText('Retry'));
    await waitFor(() => expect(shown()).toEqual(['docker.io/library/python:3.12']));
    expect(imageLists(sent)).toHaveLength(2);
  });

  it("fills a template's image parameter from the images that fit the template's kind and chosen model", async () => {
    const sent = renderForm({}, '/jobs/new?template=train');
    const model = await screen.findByTestId('param-model');
    await waitFor(() => expect(within(model).getByRole('option', { name: /Ascend 910B/ })).toBeTruthy());
    type('param-model', '910b');
    fireEvent.click(screen.getByTestId('image-pick-toggle'));
    fireEvent.click(await screen.findByText('registry.lab/ascend/torch:latest'));
    expect(Object.fromEntries(imageLists(sent).at(-1)!.query)).toEqual({ kind: 'pytorch', accelerator: '910b', limit: '100' });
    expect((screen.getByTestId('param-image') as HTMLInputElement).value).toBe('registry.lab/ascend/torch:latest');
    type('job-name', 'train');
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    const body = sent.find((r) => r.method === 'POST' && r.path === '/api/v1/jobs')!.body as SubmitJob;
    expect(body.template?.parameters).toEqual({ image: 'registry.lab/ascend/torch:latest', model: '910b' });
  });
});
