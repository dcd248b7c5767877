import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Tensorboard } from '../../api/types';
import { json, mockFetch } from '../../test/mockFetch';
import { TensorboardsPage } from './TensorboardsPage';

const PANEL: Tensorboard = {
  id: 'tb_abcdefgh',
  name: 'runs-june',
  account: 'lab',
  state: 'Running',
  job: 'j7k3f9ab',
  stoppedReason: null,
  startedAt: '2026-12-01T10:00:00Z',
  stoppedAt: null,
  lastUsedAt: null,
  sources: [
    { name: 'exp1', space: 'user:ada', path: '/runs/exp1', job: null, mountPath: '/logs/0' },
    { name: 'train', space: 'user:ada', path: '/train', job: 'j1234567', mountPath: '/logs/1' },
  ],
  createdAt: '2026-12-01T10:00:00Z',
};

function renderPage(url = '/tensorboards') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <TensorboardsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('TensorboardsPage', () => {
  it('lists a running panel with its folders, and stops it', async () => {
    let stoppedNow = false;
    const sent = mockFetch({
      'GET /api/v1/tensorboards': () =>
        json({ items: [stoppedNow ? { ...PANEL, state: 'Stopped', stoppedReason: 'TensorboardIdle' } : PANEL] }),
      'POST /api/v1/tensorboards/tb_abcdefgh/stop': () => {
        stoppedNow = true;
        return json({ ...PANEL, state: 'Stopped' });
      },
    });
    renderPage();
    const row = await screen.findByTestId('tensorboard-tb_abcdefgh');
    expect(row.textContent).toContain('runs-june');
    expect(row.textContent).toContain('user:ada:/runs/exp1');
    expect(row.textContent).toContain('job j1234567');
    expect(row.textContent).toContain('not opened yet');
    expect(within(row).getByTestId('tensorboard-open')).toBeTruthy();
    fireEvent.click(within(row).getByTestId('tensorboard-stop'));
    await waitFor(() => expect(screen.getByTestId('tensorboard-reason').textContent).toBe('stopped because nobody opened it'));
    expect(within(screen.getByTestId('tensorboard-tb_abcdefgh')).queryByTestId('tensorboard-open')).toBeNull();
    expect(within(screen.getByTestId('tensorboard-tb_abcdefgh')).getByTestId('tensorboard-start')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('shows the empty and the error state', async () => {
    mockFetch({ 'GET /api/v1/tensorboards': json({ items: [] }) });
    renderPage();
    expect(await screen.findByText('No panels yet')).toBeTruthy();
    vi.unstubAllGlobals();
    mockFetch({ 'GET /api/v1/tensorboards': json({ status: 500, code: 'Internal', detail: 'boom' }, 500) });
    renderPage();
    expect(await screen.findByText('Your panels could not be loaded')).toBeTruthy();
  });

  it("starts the form from a job's page and shows a refusal under its field", async () => {
    const sent = mockFetch({
      'GET /api/v1/tensorboards': json({ items: [] }),
      'GET /api/v1/spaces': json([{ name: 'user' }]),
      'POST /api/v1/tensorboards': json(
        {
          status: 400,
          code: 'InvalidTensorboard',
          detail: 'the panel cannot be made as given',
          errors: [{ field: 'sources[0].job', message: 'job j7k3f9 has no working directory' }],
        },
        400,
      ),
    });
    renderPage('/tensorboards?job=j7k3f9');
    const dialog = await screen.findByTestId('tensorboard-dialog');
    expect((within(dialog).getByTestId('tensorboard-name') as HTMLInputElement).value).toBe('tb-j7k3f9');
    fireEvent.click(within(dialog).getByTestId('tensorboard-save'));
    expect(await within(dialog).findByText('job j7k3f9 has no working directory')).toBeTruthy();
    const post = sent.find((r) => r.method === 'POST');
    expect(post?.body).toEqual({ name: 'tb-j7k3f9', sources: [{ job: 'j7k3f9' }] });
  });

  it('picks a log folder by browsing the space, with its loading, empty and error states', async () => {
    const entry = (name: string, path: string, type = 'folder') => ({ name, path, type, size: 0, modified: '2026-12-01T10:00:00Z' });
    const listing = (path: string, items: unknown[]) => json({ space: 'user', path, items, nextCursor: null, total: items.length });
    const sent = mockFetch({
      'GET /api/v1/tensorboards': json({ items: [] }),
      'GET /api/v1/spaces': json([{ name: 'user' }, { name: 'public' }]),
      'GET /api/v1/files/user': listing('/', [entry('runs', '/runs'), entry('notes.txt', '/notes.txt', 'file')]),
      'GET /api/v1/files/user/runs': listing('/runs', [entry('exp1', '/runs/exp1')]),
      'GET /api/v1/files/user/runs/exp1': listing('/runs/exp1', [
        entry('events.out.tfevents.1', '/runs/exp1/events.out.tfevents.1', 'file'),
      ]),
      'GET /api/v1/files/public/runs/exp1': json({ status: 403, code: 'SpaceForbidden', detail: 'you may not read space public' }, 403),
      'POST /api/v1/tensorboards': json({ ...PANEL, name: 'picked' }, 201),
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('tensorboards-create'));
    const dialog = await screen.findByTestId('tensorboard-dialog');
    fireEvent.change(within(dialog).getByTestId('tensorboard-name'), { target: { value: 'picked' } });
    fireEvent.click(within(dialog).getByTestId('tensorboard-browse-0'));
    expect(within(dialog).getByTestId('folder-browser-loading').textContent).toBe('Loading folders…');
    // Only folders are offered; a file is not.
    const runs = await within(dialog).findByText('runs/');
    expect(within(dialog).queryByText('notes.txt/')).toBeNull();
    fireEvent.click(runs);
    fireEvent.click(await within(dialog).findByText('exp1/'));
    expect((await within(dialog).findByTestId('folder-browser-empty')).textContent).toBe('No folders in here');
    expect(within(dialog).getByTestId('folder-browser-path').textContent).toBe('user:/runs/exp1');
    fireEvent.click(within(dialog).getByTestId('folder-browser-choose'));
    expect(within(dialog).queryByTestId('folder-browser')).toBeNull();
    expect((within(dialog).getByLabelText('Path in the space') as HTMLInputElement).value).toBe('/runs/exp1');

    // Browsing starts at the path typed; a space that cannot be read shows the refusal, and nothing can be chosen.
    fireEvent.change(within(dialog).getByLabelText('Space'), { target: { value: 'public' } });
    fireEvent.click(within(dialog).getByTestId('tensorboard-browse-0'));
    expect((await within(dialog).findByTestId('folder-browser-error')).textContent).toContain('you may not read space public');
    expect((within(dialog).getByTestId('folder-browser-choose') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Space'), { target: { value: 'user' } });
    fireEvent.click(within(dialog).getByTestId('tensorboard-save'));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ name: 'picked', sources: [{ space: 'user', path: '/runs/exp1' }] });
  });
});
