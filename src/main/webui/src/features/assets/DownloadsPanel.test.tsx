import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Download } from '../../api/downloads';
import { json, mockFetch } from '../../test/mockFetch';
import { DownloadsPanel } from './DownloadsPanel';
import { patterns } from './downloadForm';

const RUNNING: Download = {
  id: 'dl_abcdefghij',
  kind: 'model',
  hub: 'huggingface',
  endpoint: 'https://huggingface.co',
  repository: 'acme/tiny-llm',
  revision: 'main',
  sha: '1111111111111111111111111111111111111111',
  include: ['*.json'],
  exclude: [],
  credential: 'hf',
  name: 'tiny-llm',
  owner: 'ada',
  space: 'user:ada',
  path: '/models/tiny',
  visibility: 'private',
  account: null,
  state: 'running',
  reason: '',
  message: '',
  warnings: ["'main' moved to 2222 while downloading"],
  bytesDone: 1024 ** 3,
  bytesTotal: 4 * 1024 ** 3,
  filesDone: 1,
  files: 3,
  percent: 25,
  job: 'jabc123',
  asset: null,
  deduplicated: false,
  mayEdit: true,
  createdAt: '2026-12-01T10:00:00Z',
  updatedAt: '2026-12-01T10:00:00Z',
  finishedAt: null,
};

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DownloadsPanel />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('DownloadsPanel', () => {
  it('shows progress in bytes and files, warnings, and pauses a running download', async () => {
    const sent = mockFetch({
      'GET /api/v1/assets/downloads': json({ items: [RUNNING] }),
      'POST /api/v1/assets/downloads/dl_abcdefghij/pause': json({ ...RUNNING, state: 'paused' }),
    });
    renderPanel();
    const row = await screen.findByTestId('download-tiny-llm');
    expect(within(row).getByTestId('download-bytes').textContent).toBe('1 GiB of 4 GiB (25%), 1 of 3 files');
    expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(within(row).getByTestId('download-warning').textContent).toContain('moved');
    fireEvent.click(within(row).getByText('Pause'));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST' && r.path.endsWith('/pause'))).toBe(true));
  });

  it('says when there is none, and shows the field errors of a refused start', async () => {
    mockFetch({
      'GET /api/v1/assets/downloads': json({ items: [] }),
      'POST /api/v1/assets/downloads': json(
        {
          status: 400,
          code: 'InvalidDownload',
          detail: 'the download cannot be started as given',
          errors: [{ field: 'repository', message: 'owner/name: letters, digits' }],
        },
        400,
      ),
    });
    renderPanel();
    expect(await screen.findByText('No downloads yet')).toBeTruthy();
    fireEvent.change(screen.getByTestId('download-repository'), { target: { value: 'not a repo' } });
    fireEvent.click(screen.getByTestId('download-start'));
    expect(await screen.findByText('owner/name: letters, digits')).toBeTruthy();
  });

  it('starts a download from ModelScope at its default branch', async () => {
    const sent = mockFetch({
      'GET /api/v1/assets/downloads': json({ items: [] }),
      'POST /api/v1/assets/downloads': json({ ...RUNNING, hub: 'modelscope', revision: 'master' }, 201),
    });
    renderPanel();
    await screen.findByText('No downloads yet');
    fireEvent.change(screen.getByTestId('download-hub'), { target: { value: 'modelscope' } });
    fireEvent.change(screen.getByTestId('download-repository'), { target: { value: 'Qwen/Qwen2.5-0.5B' } });
    fireEvent.change(screen.getByTestId('download-credential'), { target: { value: 'ms' } });
    fireEvent.click(screen.getByTestId('download-start'));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')?.body).toMatchObject({
      hub: 'modelscope',
      repository: 'Qwen/Qwen2.5-0.5B',
      revision: 'master',
      credential: 'ms',
    });
  });

  it('shows an error state when the list cannot be read', async () => {
    mockFetch({ 'GET /api/v1/assets/downloads': json({ status: 500, title: 'Internal' }, 500) });
    renderPanel();
    expect(await screen.findByText('The downloads could not be loaded')).toBeTruthy();
  });

  it('reads patterns separated by commas or spaces', () => {
    expect(patterns(' *.json, *.safetensors  onnx/ ')).toEqual(['*.json', '*.safetensors', 'onnx/']);
    expect(patterns('')).toEqual([]);
  });
});
