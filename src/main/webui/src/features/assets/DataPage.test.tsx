import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Asset } from '../../api/types';
import { json, mockFetch } from '../../test/mockFetch';
import { DataPage } from './DataPage';

const ASSET: Asset = {
  id: 'ds_abcdefghij',
  kind: 'dataset',
  name: 'imagenet',
  owner: 'ada',
  description: 'a sample',
  space: 'user:ada',
  path: '/imagenet',
  targetType: 'folder',
  sizeBytes: 3 * 1024 ** 3,
  files: 3,
  measuredAt: '2026-12-01T10:00:00Z',
  licence: '',
  source: '',
  revision: '',
  visibility: 'account',
  account: 'lab',
  tags: ['vision'],
  createdAt: '2026-12-01T10:00:00Z',
  updatedAt: '2026-12-01T10:00:00Z',
  mayEdit: true,
};

const ME = { id: '1', username: 'ada', slug: 'ada', displayName: 'Ada', email: null, uid: 10001 };

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DataPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('DataPage', () => {
  it('lists datasets with size in units, visibility, tags and owner, and shows a refused delete', async () => {
    const sent = mockFetch({
      'GET /api/v1/me': json(ME),
      'GET /api/v1/assets': (req) => json({ items: req.query.get('kind') === 'dataset' ? [ASSET] : [], nextCursor: null }),
      'DELETE /api/v1/assets/ds_abcdefghij': json(
        { status: 409, code: 'AssetInUse', detail: "the dataset 'imagenet' is mounted by jobs that have not ended: jabc123" },
        409,
      ),
    });
    renderPage();
    const row = await screen.findByTestId('asset-imagenet');
    expect(within(row).getByText('3 GiB')).toBeTruthy();
    expect(row.textContent).toContain('Account');
    expect(row.textContent).toContain('(lab)');
    expect(row.textContent).toContain('vision');
    expect(row.textContent).toContain('ada');
    fireEvent.click(within(row).getByTestId('asset-delete'));
    fireEvent.click(within(row).getByTestId('asset-delete-confirm'));
    expect((await within(row).findByTestId('asset-error')).textContent).toContain('jabc123');
    expect(sent.some((r) => r.method === 'DELETE')).toBe(true);

    fireEvent.click(screen.getByTestId('assets-tab-model'));
    expect(await screen.findByText('No models yet')).toBeTruthy();
  });

  it('shows the error state when the list cannot be read', async () => {
    mockFetch({
      'GET /api/v1/me': json(ME),
      'GET /api/v1/assets': json({ status: 500, code: 'Internal', detail: 'boom' }, 500),
    });
    renderPage();
    expect(await screen.findByText('The datasets and models could not be loaded')).toBeTruthy();
  });

  it("shows the Downloads tab with its empty state and without the catalogue's search, which would change nothing there", async () => {
    const sent = mockFetch({
      'GET /api/v1/me': json(ME),
      'GET /api/v1/assets': json({ items: [], nextCursor: null }),
      'GET /api/v1/assets/downloads': json({ items: [], nextCursor: null }),
    });
    renderPage();
    expect(await screen.findByTestId('assets-search')).toBeTruthy();
    fireEvent.click(screen.getByTestId('assets-tab-downloads'));
    expect(await screen.findByText('No downloads yet')).toBeTruthy();
    expect(screen.getByTestId('download-form')).toBeTruthy();
    expect(screen.queryByTestId('assets-search')).toBeNull();
    expect(sent.some((r) => r.path === '/api/v1/assets/downloads')).toBe(true);
    fireEvent.click(screen.getByTestId('assets-tab-dataset'));
    expect(await screen.findByTestId('assets-search')).toBeTruthy();
  });

  it('checks the register form before sending and sends the entry', async () => {
    const sent = mockFetch({
      'GET /api/v1/me': json(ME),
      'GET /api/v1/assets': json({ items: [], nextCursor: null }),
      'GET /api/v1/spaces': json([{ name: 'user', kind: 'user', access: 'rw', usedBytes: 0, usedFiles: 0, maxBytes: -1, maxFiles: -1 }]),
      'POST /api/v1/assets': json(ASSET, 201),
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('assets-register'));
    fireEvent.change(screen.getByTestId('asset-name'), { target: { value: 'Bad Name' } });
    fireEvent.click(screen.getByTestId('asset-save'));
    expect(await screen.findByText('1 to 63 lowercase letters, digits or inner -')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByTestId('asset-name'), { target: { value: 'imagenet' } });
    fireEvent.change(screen.getByTestId('asset-path'), { target: { value: '/imagenet' } });
    fireEvent.change(screen.getByTestId('asset-tags'), { target: { value: 'Vision, images' } });
    fireEvent.click(screen.getByTestId('asset-save'));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    const post = sent.find((r) => r.method === 'POST');
    expect(post?.body).toMatchObject({ kind: 'dataset', name: 'imagenet', space: 'user', path: '/imagenet', tags: ['vision', 'images'] });
  });
});
