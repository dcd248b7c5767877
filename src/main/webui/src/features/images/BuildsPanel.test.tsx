import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Build, Credential } from '../../api/types';
import { json, mockFetch } from '../../test/mockFetch';
import { ImagesPage } from './ImagesPage';

const BUILD: Build = {
  id: 'ib_running1',
  owner: 'ada',
  account: 'lab',
  source: 'packages',
  base: 'pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime',
  pip: ['transformers==4.44.0'],
  apt: ['git'],
  dockerfile: 'FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\n',
  destination: 'registry.lab:5000/ada/trainer:1',
  credential: 'reg',
  builder: 'buildkit',
  description: 'trainer',
  state: 'building',
  job: 'ada-imagebuild-x1',
  jobState: 'Running',
  reason: null,
  detail: null,
  logTail: null,
  image: null,
  digest: null,
  createdAt: '2026-12-01T10:00:00Z',
  finishedAt: null,
};

const FAILED: Build = {
  ...BUILD,
  id: 'ib_failed01',
  state: 'failed',
  jobState: 'Failed',
  reason: 'BuildFailed',
  detail: 'the builder exited with code 1',
  logTail: 'ERROR: No matching distribution found for transformers==9',
  finishedAt: '2026-12-01T10:05:03Z',
};

const DONE: Build = {
  ...BUILD,
  id: 'ib_done0001',
  state: 'succeeded',
  jobState: 'Succeeded',
  image: 'im_trainer1',
  digest: 'sha256:1f2e',
  finishedAt: '2026-12-01T10:02:00Z',
};

const REG: Credential = { name: 'reg', kind: 'registry', host: 'registry.lab:5000', createdAt: '', updatedAt: '' };
const HF: Credential = { name: 'hf', kind: 'huggingface', createdAt: '', updatedAt: '' };

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ImagesPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const EMPTY_IMAGES = { 'GET /api/v1/images': json({ items: [], nextCursor: null }) };

afterEach(() => vi.unstubAllGlobals());

describe('image builds', () => {
  it('lists builds with their state, job link, result and failure log, and stops a running one after confirming', async () => {
    let stopped = false;
    const sent = mockFetch({
      ...EMPTY_IMAGES,
      'GET /api/v1/images/builds': () =>
        json({
          items: [stopped ? { ...BUILD, state: 'stopped', finishedAt: '2026-12-01T10:01:00Z' } : BUILD, FAILED, DONE],
          nextCursor: null,
        }),
      'POST /api/v1/images/builds/ib_running1/stop': () => {
        stopped = true;
        return json({ ...BUILD, state: 'stopped' });
      },
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('images-tab-builds'));
    const running = await screen.findByTestId('build-ib_running1');
    expect(within(running).getByTestId('status-badge').textContent).toBe('Building');
    expect(running.textContent).toContain('registry.lab:5000/ada/trainer:1');
    expect(within(running).getByTestId('build-job').getAttribute('href')).toBe('/jobs/ada-imagebuild-x1');

    const failed = screen.getByTestId('build-ib_failed01');
    expect(within(failed).getByTestId('status-badge').getAttribute('data-status')).toBe('failed');
    expect(within(failed).getByTestId('build-failure').textContent).toContain('BuildFailed');
    expect(failed.textContent).toContain('the builder exited with code 1');
    expect(within(failed).getByTestId('build-log').textContent).toContain('No matching distribution');
    expect(within(failed).getByTestId('build-duration').textContent).toBe('5m 3s');
    expect(within(failed).queryByTestId('build-stop')).toBeNull();

    const done = screen.getByTestId('build-ib_done0001');
    expect(within(done).getByTestId('build-image').textContent).toContain('im_trainer1');
    expect(done.textContent).toContain('sha256:1f2e');

    fireEvent.click(within(running).getByTestId('build-stop'));
    expect(sent.some((r) => r.path.endsWith('/stop'))).toBe(false);
    fireEvent.click(within(running).getByTestId('build-stop-confirm'));
    await waitFor(() => expect(within(screen.getByTestId('build-ib_running1')).getByTestId('status-badge').textContent).toBe('Stopped'));
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('shows the empty and the error states of the builds list', async () => {
    mockFetch({ ...EMPTY_IMAGES, 'GET /api/v1/images/builds': json({ items: [], nextCursor: null }) });
    const first = renderPage();
    fireEvent.click(await screen.findByTestId('images-tab-builds'));
    expect(await screen.findByText('No builds yet')).toBeTruthy();
    first.unmount();
    vi.unstubAllGlobals();
    mockFetch({ ...EMPTY_IMAGES, 'GET /api/v1/images/builds': json({ status: 500, code: 'Internal', detail: 'boom' }, 500) });
    renderPage();
    fireEvent.click(await screen.findByTestId('images-tab-builds'));
    expect(await screen.findByText('The builds could not be loaded')).toBeTruthy();
  });

  it('checks the form, offers registry credentials only, shows a server refusal beside its field, and starts the build', async () => {
    const sent = mockFetch({
      ...EMPTY_IMAGES,
      'GET /api/v1/me/credentials': json({ items: [HF, REG] }),
      'GET /api/v1/images/builds': json({ items: [BUILD], nextCursor: null }),
      'POST /api/v1/images/builds': [
        json(
          {
            status: 400,
            code: 'InvalidImageBuild',
            detail: 'the image build cannot be started as given',
            errors: [
              { field: 'pip[1]', message: 'not a pip requirement' },
              { field: 'destination', message: 'credential reg logs in to registry.lab:5000, not to ghcr.io' },
            ],
          },
          400,
        ),
        json(BUILD, 201),
      ],
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('images-build'));
    const dialog = await screen.findByTestId('build-dialog');
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toContain('reg (registry.lab:5000)'),
    );
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).not.toContain('hf');

    fireEvent.change(screen.getByTestId('build-pip'), { target: { value: 'evil;rm' } });
    fireEvent.change(screen.getByTestId('build-destination'), { target: { value: 'ghcr.io/ada/trainer' } });
    fireEvent.click(screen.getByTestId('build-start'));
    expect(await screen.findByText('Name the image to start from')).toBeTruthy();
    expect(screen.getByText(/Each pip package/)).toBeTruthy();
    expect(screen.getByText('registry/repository:tag, with the tag and without spaces or a digest')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByTestId('build-base'), { target: { value: 'pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime' } });
    fireEvent.change(screen.getByTestId('build-pip'), { target: { value: 'transformers==4.44.0\naccelerate>=0.33,<1' } });
    fireEvent.change(screen.getByTestId('build-destination'), { target: { value: 'ghcr.io/ada/trainer:1' } });
    fireEvent.change(screen.getByTestId('build-credential'), { target: { value: 'reg' } });
    fireEvent.click(screen.getByTestId('build-start'));
    expect(await screen.findByText('accelerate>=0.33,<1: not a pip requirement')).toBeTruthy();
    expect(screen.getByText('credential reg logs in to registry.lab:5000, not to ghcr.io')).toBeTruthy();

    fireEvent.change(screen.getByTestId('build-destination'), { target: { value: 'registry.lab:5000/ada/trainer:1' } });
    fireEvent.click(screen.getByTestId('build-kind-pytorch'));
    fireEvent.click(screen.getByTestId('build-start'));
    await waitFor(() => expect(screen.queryByTestId('build-dialog')).toBeNull());
    const posts = sent.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.body).toEqual({
      base: 'pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime',
      pip: ['transformers==4.44.0', 'accelerate>=0.33,<1'],
      apt: [],
      destination: 'registry.lab:5000/ada/trainer:1',
      credential: 'reg',
      kinds: ['pytorch'],
    });
    expect(await screen.findByTestId('build-ib_running1')).toBeTruthy();
  });

  it('sends a Dockerfile build without base or packages', async () => {
    const sent = mockFetch({
      ...EMPTY_IMAGES,
      'GET /api/v1/me/credentials': json({ items: [] }),
      'GET /api/v1/images/builds': json({ items: [], nextCursor: null }),
      'POST /api/v1/images/builds': json({ ...BUILD, source: 'dockerfile' }, 201),
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('images-build'));
    fireEvent.click(await screen.findByTestId('build-mode-dockerfile'));
    expect(await screen.findByText(/You have no registry credentials/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('build-dockerfile'), { target: { value: 'RUN true' } });
    fireEvent.change(screen.getByTestId('build-destination'), { target: { value: 'registry.lab:5000/ada/tool:1' } });
    fireEvent.click(screen.getByTestId('build-start'));
    expect(await screen.findByText('A Dockerfile starts from an image: a FROM line is missing')).toBeTruthy();
    fireEvent.change(screen.getByTestId('build-dockerfile'), { target: { value: 'FROM ubuntu:22.04\nRUN true\n' } });
    fireEvent.click(screen.getByTestId('build-start'));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      dockerfile: 'FROM ubuntu:22.04\nRUN true\n',
      destination: 'registry.lab:5000/ada/tool:1',
    });
  });
});
