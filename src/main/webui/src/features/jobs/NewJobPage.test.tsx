import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, useParams } from 'react-router';
import type { JobDetail, JobSummary, Template, TemplateSummary } from '../../api/types';
import { NewJobPage } from './NewJobPage';

interface Call {
  method: string;
  path: string;
  body: string | undefined;
  contentType: string | undefined;
}

type Answer = { status: number; body?: unknown };
type Handler = (call: Call) => Answer | undefined;

const BATCH: Template = {
  id: 'batch',
  name: 'Batch job',
  description: 'One container running a command to completion.',
  kind: 'custom',
  builtin: true,
  visibility: 'public',
  account: null,
  owner: null,
  version: 2,
  updatedAt: '2025-01-01T00:00:00Z',
  canEdit: false,
  spec: { kind: 'custom', name: 'batch', image: '${image}', command: ['${command}'] },
  parameters: [
    { name: 'image', label: 'Image', description: null, type: 'string', default: 'python:3.12-slim', required: true, options: null },
    {
      name: 'command',
      label: 'Command',
      description: 'The command line.',
      type: 'arguments',
      default: null,
      required: true,
      options: null,
    },
    { name: 'accelerators', label: 'Accelerators', description: null, type: 'integer', default: '0', required: false, options: null },
    { name: 'timeLimit', label: 'Time limit', description: null, type: 'duration', default: '1d', required: false, options: null },
  ],
};

const SUMMARIES: TemplateSummary[] = [
  {
    id: 'batch',
    name: 'Batch job',
    description: BATCH.description,
    kind: 'custom',
    builtin: true,
    visibility: 'public',
    account: null,
    owner: null,
    version: 2,
    updatedAt: BATCH.updatedAt,
  },
  {
    id: 'vscode',
    name: 'VS Code in the browser',
    description: '',
    kind: 'webide',
    builtin: true,
    visibility: 'public',
    account: null,
    owner: null,
    version: 1,
    updatedAt: BATCH.updatedAt,
  },
];

const CREATED: JobSummary = {
  id: 'j-new',
  name: 'Batch job',
  kind: 'custom',
  state: 'Queued',
  account: 'u-alice',
  owner: 'alice',
  requests: {},
  borrowing: false,
  reasons: [],
  createdAt: '2025-01-02T00:00:00Z',
  startedAt: null,
  finishedAt: null,
};

const SOURCE: JobDetail = {
  mounts: [],
  job: { ...CREATED, id: 'j-1', name: 'train', state: 'Succeeded' },
  spec: {
    name: 'train',
    kind: 'custom',
    image: 'python:3.12',
    command: ['python', '-c', 'print(1)'],
    workingDir: '/crater/user',
    env: { EPOCHS: '10' },
    resources: { cpu: '2', memory: '8Gi' },
    priority: 'high',
  },
  stateReason: null,
  stateMessage: null,
  history: [],
  template: { id: 'batch', version: 2, name: 'Batch job' },
  sourceJob: null,
  pods: [],
  events: [],
  exits: [],
  permissions: { stop: false, delete: true, readLogs: true, resubmit: true },
};

/** A job rendered from the batch template with its values, in a working directory of its own. */
const FROM_TEMPLATE: JobDetail = {
  ...SOURCE,
  job: { ...SOURCE.job, id: 'j-2', name: 'nightly' },
  spec: {
    ...SOURCE.spec,
    name: 'nightly',
    workingDir: '/crater/user/run',
    priority: 'low',
    template: {
      id: 'batch',
      version: 2,
      parameters: { image: 'python:3.13', command: 'python run.py --n 10', accelerators: '1', timeLimit: '2h' },
    },
  },
};

let calls: Call[] = [];
let handler: Handler = () => undefined;

/** The server: the fixtures above, `handler` first; anything else is 404. */
function answer(call: Call): Answer {
  const custom = handler(call);
  if (custom) return custom;
  if (call.method === 'GET' && call.path === '/api/v1/templates') return { status: 200, body: { items: SUMMARIES } };
  if (call.method === 'GET' && call.path.startsWith('/api/v1/templates/batch')) return { status: 200, body: BATCH };
  if (call.method === 'GET' && call.path === '/api/v1/jobs/j-1') return { status: 200, body: SOURCE };
  if (call.method === 'GET' && call.path === '/api/v1/jobs/j-2') return { status: 200, body: FROM_TEMPLATE };
  if (call.method === 'POST' && call.path === '/api/v1/jobs') return { status: 201, body: CREATED };
  return { status: 404, body: { title: 'Not Found', status: 404 } };
}

beforeEach(() => {
  calls = [];
  handler = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const call: Call = {
        method: init?.method ?? 'GET',
        path: String(input),
        body: typeof init?.body === 'string' ? init.body : undefined,
        contentType: headers['Content-Type'],
      };
      calls.push(call);
      const { status, body } = answer(call);
      const type = status >= 400 ? 'application/problem+json' : 'application/json';
      return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': type } });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function JobStub() {
  const { id } = useParams();
  return <p data-testid="job-page">{id}</p>;
}

function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/jobs/new', element: <NewJobPage /> },
      { path: '/jobs/:id', element: <JobStub /> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const posts = () => calls.filter((c) => c.method === 'POST');
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

describe('NewJobPage without parameters', () => {
  it('keeps the full-spec form with all its inputs and offers the templates above it', async () => {
    renderAt('/jobs/new');
    const form = screen.getByTestId('job-form');
    for (const id of [
      'job-kind',
      'job-name',
      'job-image',
      'job-command',
      'job-env',
      'job-working-dir',
      'job-cpu',
      'job-memory',
      'job-shared-memory',
      'job-accelerator-model',
      'job-accelerators',
      'job-time-limit',
      'job-priority',
      'job-dryrun',
      'job-submit',
    ]) {
      expect(within(form).getByTestId(id)).toBeTruthy();
    }
    const picker = screen.getByTestId('template-picker');
    const pick = await within(picker).findByTestId('template-pick-batch');
    expect(pick.getAttribute('href')).toBe('/jobs/new?template=batch');
    expect(within(picker).getByTestId('template-pick-vscode')).toBeTruthy();
    // The picker comes before the form.
    expect(picker.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByTestId('template-form')).toBeNull();
    expect(screen.queryByTestId('job-cloned-from')).toBeNull();
  });

  it('reads amounts in their stated units and says what it understood', async () => {
    renderAt('/jobs/new');
    expect(screen.getByText('Memory (GiB)')).toBeTruthy();
    expect(screen.getByTestId('job-memory-note').textContent).toBe('= 4 GiB');
    fireEvent.change(input('job-memory'), { target: { value: '64' } });
    fireEvent.change(input('job-cpu'), { target: { value: '1,5' } });
    expect(screen.getByTestId('job-memory-note').textContent).toBe('= 64 GiB');
    expect(screen.getByTestId('job-cpu-note').textContent).toBe('= 1.5 cores');
    fireEvent.change(input('job-memory'), { target: { value: '99999Ti' } });
    expect(screen.getByTestId('job-memory-note').textContent).toBe('Too large: at most 16 TiB');
    fireEvent.change(input('job-name'), { target: { value: 'n'.repeat(300) } });
    // Nothing is cut: the name keeps all it was given and says the limit.
    expect(input('job-name').value).toHaveLength(300);
    expect(screen.getByText('Too long: at most 100 characters (this has 300).')).toBeTruthy();
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(await screen.findByTestId('job-form-invalid')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it("shows the server's field errors under their fields and the rest in the box", async () => {
    handler = (c) =>
      c.method === 'POST' && c.path === '/api/v1/jobs'
        ? {
            status: 400,
            body: {
              title: 'Bad Request',
              status: 400,
              code: 'InvalidJob',
              detail: 'the job cannot be submitted as given',
              errors: [
                { field: 'resources.memory', message: 'memory needs a unit (examples: 512Mi, 64Gi, 1Ti)' },
                { field: 'resources.accelerators', message: 'must not be negative' },
                { field: 'workingDir', message: 'an absolute path' },
                { field: 'backfill', message: 'not allowed here' },
              ],
            },
          }
        : undefined;
    renderAt('/jobs/new');
    fireEvent.change(input('job-name'), { target: { value: 'x' } });
    fireEvent.change(input('job-image'), { target: { value: 'python:3.12' } });
    fireEvent.change(input('job-command'), { target: { value: 'true' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    await waitFor(() => expect(screen.getByTestId('job-memory-note').textContent).toBe('memory needs a unit (examples: 512Mi, 64Gi, 1Ti)'));
    expect(input('job-memory').getAttribute('aria-invalid')).toBe('true');
    expect(JSON.parse(posts()[0]?.body ?? '{}').resources).toEqual({ cpu: '1', memory: '4Gi' });
    const box = screen.getByTestId('form-error');
    expect(box.textContent).toContain('backfill: not allowed here');
    expect(box.textContent).not.toContain('resources.memory');
    expect(box.textContent).not.toContain('workingDir');
    expect(input('job-working-dir').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('an absolute path')).toBeTruthy();
  });

  it('still works when the templates cannot be loaded', async () => {
    handler = (c) => (c.path === '/api/v1/templates' ? { status: 500, body: { title: 'Server Error' } } : undefined);
    renderAt('/jobs/new');
    expect(await screen.findByTestId('template-picker-error')).toBeTruthy();
    expect(screen.getByTestId('job-form')).toBeTruthy();
  });

  it('opens the template form when a template is picked', async () => {
    const router = renderAt('/jobs/new');
    fireEvent.click(await screen.findByTestId('template-pick-batch'));
    expect(await screen.findByTestId('template-form')).toBeTruthy();
    expect(router.state.location.search).toBe('?template=batch');
    expect(screen.queryByTestId('job-form')).toBeNull();
  });
});

describe('NewJobPage with ?template=', () => {
  it('shows the template, defaults the name to it and submits the template reference', async () => {
    const router = renderAt('/jobs/new?template=batch');
    const form = await screen.findByTestId('template-form');
    expect(within(form).getByText('Batch job')).toBeTruthy();
    expect(within(form).getByText(BATCH.description)).toBeTruthy();
    expect(screen.getByTestId('template-form-version').textContent).toBe('v2');
    expect(input('job-name').value).toBe('Batch job');
    expect((screen.getByTestId('job-priority') as HTMLSelectElement).value).toBe('normal');
    expect(input('param-image').value).toBe('python:3.12-slim');

    fireEvent.change(input('job-name'), { target: { value: 'nightly' } });
    fireEvent.change(screen.getByTestId('job-priority'), { target: { value: 'high' } });
    fireEvent.change(input('param-command'), { target: { value: 'python run.py --n 10' } });
    fireEvent.click(screen.getByTestId('job-submit'));

    expect(await screen.findByTestId('job-page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/jobs/j-new');
    const post = posts()[0];
    expect(post?.path).toBe('/api/v1/jobs');
    expect(post?.contentType).toBe('application/json');
    expect(JSON.parse(post?.body ?? '{}')).toEqual({
      name: 'nightly',
      priority: 'high',
      template: {
        id: 'batch',
        version: 2,
        parameters: { image: 'python:3.12-slim', command: 'python run.py --n 10', accelerators: '0', timeLimit: '1d' },
      },
    });
  });

  it('reads amount parameters in the unit of the field they fill, and puts server errors under them', async () => {
    const GPU: Template = {
      ...BATCH,
      id: 'gpu',
      spec: { ...BATCH.spec, resources: { memory: '${mem}', acceleratorModel: 'm', accelerators: '${gpus}' } },
      parameters: [
        ...BATCH.parameters.slice(0, 2),
        { name: 'mem', label: 'Memory', description: null, type: 'quantity', default: '16Gi', required: false, options: null },
        { name: 'gpus', label: 'GPUs', description: null, type: 'integer', default: '1', required: false, options: null },
      ],
    };
    let refuse = false;
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/api/v1/templates/gpu')) return { status: 200, body: GPU };
      if (c.method === 'POST' && refuse)
        return {
          status: 400,
          body: {
            title: 'Bad Request',
            status: 400,
            code: 'InvalidJob',
            errors: [{ field: 'resources.accelerators', message: 'too large: at most 64 per pod' }],
          },
        };
      return undefined;
    };
    renderAt('/jobs/new?template=gpu');
    await screen.findByTestId('template-form');
    expect(screen.getByText(/^Memory \(GiB\)/)).toBeTruthy();
    expect(screen.getByText('= 16 GiB')).toBeTruthy();
    fireEvent.change(input('param-command'), { target: { value: 'true' } });
    fireEvent.change(input('param-mem'), { target: { value: '64' } });
    expect(screen.getByText('= 64 GiB')).toBeTruthy();
    fireEvent.change(input('param-gpus'), { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(await screen.findByTestId('job-form-invalid')).toBeTruthy();
    expect(screen.getAllByText('Must not be negative.').length).toBeGreaterThan(0);
    expect(posts()).toEqual([]);

    refuse = true;
    fireEvent.change(input('param-gpus'), { target: { value: '8' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(await screen.findByText('too large: at most 64 per pod')).toBeTruthy();
    expect(JSON.parse(posts()[0]?.body ?? '{}').template.parameters).toMatchObject({ mem: '64Gi', gpus: '8' });
    expect(screen.getByTestId('form-error').textContent).not.toContain('resources.accelerators');
  });

  it('checks the values before sending anything', async () => {
    renderAt('/jobs/new?template=batch');
    await screen.findByTestId('template-form');
    fireEvent.change(input('job-name'), { target: { value: ' ' } });
    fireEvent.change(input('param-timeLimit'), { target: { value: '2 weeks' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(await screen.findByTestId('job-form-invalid')).toBeTruthy();
    expect(screen.getByText('Enter a name.')).toBeTruthy();
    expect(screen.getByText('A value is required.')).toBeTruthy();
    expect(screen.getByText('Enter a duration such as 90m, 12h or 3d.')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('shows the decision of a check', async () => {
    handler = (c) =>
      c.method === 'POST' && c.path === '/api/v1/jobs?dryRun=true'
        ? { status: 200, body: { decision: 'QUEUE', reasons: [], borrowing: [], manifests: 'kind: Job' } }
        : undefined;
    renderAt('/jobs/new?template=batch');
    await screen.findByTestId('template-form');
    fireEvent.change(input('param-command'), { target: { value: 'true' } });
    fireEvent.click(screen.getByTestId('job-dryrun'));
    const decision = await screen.findByTestId('job-dryrun-decision');
    expect(decision.dataset.decision).toBe('QUEUE');
    expect(screen.getByTestId('job-dryrun-result')).toBeTruthy();
    expect(JSON.parse(posts()[0]?.body ?? '{}').template.id).toBe('batch');
  });

  it("puts the server's parameter errors under their fields", async () => {
    handler = (c) =>
      c.method === 'POST' && c.path.startsWith('/api/v1/jobs')
        ? {
            status: 400,
            body: {
              title: 'Bad Request',
              code: 'InvalidParameters',
              detail: "the template's parameters are not valid",
              errors: [{ field: 'parameters.accelerators', message: 'at most 8 on this model' }],
            },
          }
        : undefined;
    renderAt('/jobs/new?template=batch');
    await screen.findByTestId('template-form');
    fireEvent.change(input('param-command'), { target: { value: 'true' } });
    fireEvent.change(input('param-accelerators'), { target: { value: '16' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    const error = await screen.findByTestId('form-error');
    expect(error.dataset.code).toBe('InvalidParameters');
    expect(input('param-accelerators').getAttribute('aria-invalid')).toBe('true');
    const field = input('param-accelerators').closest('label');
    expect(field?.textContent).toContain('at most 8 on this model');
  });

  it('renders the YAML for the advanced view and submits the edited YAML', async () => {
    handler = (c) =>
      c.method === 'POST' && c.path === '/api/v1/templates/batch/render'
        ? { status: 200, body: { spec: { name: 'batch', kind: 'custom', resources: {} }, yaml: 'name: batch\nkind: custom\n' } }
        : undefined;
    const router = renderAt('/jobs/new?template=batch');
    await screen.findByTestId('template-form');
    fireEvent.change(input('param-command'), { target: { value: 'python run.py' } });
    const toggle = screen.getByTestId('template-advanced');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);

    const yaml = (await screen.findByTestId('template-yaml')) as HTMLTextAreaElement;
    expect(yaml.value).toBe('name: batch\nkind: custom\n');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(JSON.parse(posts()[0]?.body ?? '{}')).toEqual({
      version: 2,
      parameters: { image: 'python:3.12-slim', command: 'python run.py', accelerators: '0', timeLimit: '1d' },
    });
    expect(screen.queryByTestId('param-command')).toBeNull();

    fireEvent.change(yaml, { target: { value: 'name: edited\nkind: custom\n' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    expect(router.state.location.pathname).toBe('/jobs/j-new');
    const submitted = posts()[1];
    expect(submitted?.path).toBe('/api/v1/jobs');
    expect(submitted?.contentType).toBe('application/yaml');
    expect(submitted?.body).toBe('name: edited\nkind: custom\n');
  });

  it('checks the YAML with a dry run, shows a YAML error, and goes back to the form', async () => {
    handler = (c) => {
      if (c.path === '/api/v1/templates/batch/render') return { status: 200, body: { spec: {}, yaml: 'name: batch\n' } };
      if (c.path === '/api/v1/jobs?dryRun=true') {
        return { status: 400, body: { title: 'Bad Request', code: 'InvalidYaml', detail: 'line 1: mapping values are not allowed' } };
      }
      return undefined;
    };
    renderAt('/jobs/new?template=batch');
    await screen.findByTestId('template-form');
    fireEvent.change(input('param-command'), { target: { value: 'true' } });
    fireEvent.click(screen.getByTestId('template-advanced'));
    await screen.findByTestId('template-yaml');
    fireEvent.click(screen.getByTestId('job-dryrun'));
    const error = await screen.findByTestId('form-error');
    expect(error.dataset.code).toBe('InvalidYaml');
    expect(error.textContent).toContain('The YAML is not valid: line 1: mapping values are not allowed');
    const check = posts()[1];
    expect(check?.contentType).toBe('application/yaml');

    fireEvent.click(screen.getByTestId('template-advanced'));
    expect(screen.queryByTestId('template-yaml')).toBeNull();
    expect(input('param-command').value).toBe('true');
  });

  it('does not render when a value is invalid', async () => {
    renderAt('/jobs/new?template=batch');
    await screen.findByTestId('template-form');
    fireEvent.click(screen.getByTestId('template-advanced'));
    expect(await screen.findByText('A value is required.')).toBeTruthy();
    expect(screen.queryByTestId('template-yaml')).toBeNull();
    expect(posts()).toEqual([]);
  });

  it('says so when the template cannot be loaded', async () => {
    renderAt('/jobs/new?template=gone');
    expect(await screen.findByTestId('error-state')).toBeTruthy();
    expect(screen.getByText('Could not load the template.')).toBeTruthy();
  });

  it('asks for the version in the link', async () => {
    renderAt('/jobs/new?template=batch&version=1');
    await screen.findByTestId('template-form');
    expect(calls.some((c) => c.path === '/api/v1/templates/batch?version=1')).toBe(true);
  });
});

describe('NewJobPage with ?from=', () => {
  it("fills the form from the job's spec and submits the copy with its source", async () => {
    renderAt('/jobs/new?from=j-1');
    const note = await screen.findByTestId('job-cloned-from');
    expect(note.textContent).toContain('Cloned from job j-1.');
    expect(input('job-name').value).toBe('train (copy)');
    expect(input('job-image').value).toBe('python:3.12');
    expect(input('job-command').value).toBe('python -c print(1)');
    expect((screen.getByTestId('job-env') as HTMLTextAreaElement).value).toBe('EPOCHS=10');
    expect(input('job-cpu').value).toBe('2');
    expect(input('job-working-dir').value).toBe('/crater/user');
    expect((screen.getByTestId('job-priority') as HTMLSelectElement).value).toBe('high');
    expect(screen.queryByTestId('template-picker')).toBeNull();
    // Resubmitted from a template: the spec keeps no values, so the note says why it is a plain copy.
    expect(note.textContent).toContain('does not keep its values');

    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    expect(JSON.parse(posts()[0]?.body ?? '{}')).toEqual({
      name: 'train (copy)',
      kind: 'custom',
      image: 'python:3.12',
      command: ['python', '-c', 'print(1)'],
      workingDir: '/crater/user',
      env: { EPOCHS: '10' },
      resources: { cpu: '2', memory: '8Gi' },
      priority: 'high',
      sourceJob: 'j-1',
    });
  });

  it('opens the template form of a job made from a template, with its values and working directory', async () => {
    renderAt('/jobs/new?from=j-2');
    const form = await screen.findByTestId('template-form');
    expect(form.getAttribute('data-template')).toBe('batch');
    expect(screen.getByTestId('template-form-version').textContent).toBe('v2');
    expect(screen.getByTestId('job-cloned-from').textContent).toContain('Cloned from job j-2.');
    expect(input('job-name').value).toBe('nightly (copy)');
    expect((screen.getByTestId('job-priority') as HTMLSelectElement).value).toBe('low');
    expect(input('param-image').value).toBe('python:3.13');
    expect(input('param-command').value).toBe('python run.py --n 10');
    expect(input('param-accelerators').value).toBe('1');
    expect(input('job-working-dir').value).toBe('/crater/user/run');
    expect(screen.queryByTestId('job-form')).toBeNull();

    fireEvent.change(input('param-accelerators'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    expect(JSON.parse(posts()[0]?.body ?? '{}')).toEqual({
      name: 'nightly (copy)',
      priority: 'low',
      template: {
        id: 'batch',
        version: 2,
        parameters: { image: 'python:3.13', command: 'python run.py --n 10', accelerators: '2', timeLimit: '2h' },
      },
      workingDir: '/crater/user/run',
      sourceJob: 'j-2',
    });
  });

  it('refuses a relative working directory before sending and shows the server refusing one under the field', async () => {
    handler = (c) =>
      c.method === 'POST' && c.path === '/api/v1/jobs'
        ? {
            status: 400,
            body: { title: 'Bad Request', status: 400, code: 'InvalidJob', errors: [{ field: 'workingDir', message: 'an absolute path' }] },
          }
        : undefined;
    renderAt('/jobs/new?from=j-2');
    await screen.findByTestId('template-form');
    fireEvent.change(input('job-working-dir'), { target: { value: 'run' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(await screen.findByText('Give an absolute path (starting with /).')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(input('job-working-dir'), { target: { value: '/x' } });
    fireEvent.click(screen.getByTestId('job-submit'));
    expect(await screen.findByText('an absolute path')).toBeTruthy();
    expect(input('job-working-dir').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('form-error')?.textContent ?? '').not.toContain('workingDir');
  });

  it('falls back to the spec form when the template cannot be loaded any more', async () => {
    handler = (c) =>
      c.path.startsWith('/api/v1/templates/batch') ? { status: 404, body: { title: 'Not Found', status: 404 } } : undefined;
    renderAt('/jobs/new?from=j-2');
    expect(await screen.findByTestId('clone-template-gone')).toBeTruthy();
    expect(input('job-image').value).toBe('python:3.12');
    expect(input('job-working-dir').value).toBe('/crater/user/run');
    fireEvent.click(screen.getByTestId('job-submit'));
    await screen.findByTestId('job-page');
    const body = JSON.parse(posts()[0]?.body ?? '{}');
    expect(body.sourceJob).toBe('j-2');
    expect(body.template).toBeUndefined();
  });

  it('says so when the job cannot be loaded', async () => {
    renderAt('/jobs/new?from=j-missing');
    expect(await screen.findByText('Could not load the job to clone.')).toBeTruthy();
    expect(screen.queryByTestId('job-form')).toBeNull();
  });
});
