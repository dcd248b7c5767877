import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { FileEntry, FileSpace, TrashEntry } from '../../api/types';
import { FilesPage } from './FilesPage';
import { FakeEventSource, installFakeEventSource } from '../../test/fakeEventSource';
import { FLUSH_MS } from './folderStream';

const GiB = 1024 ** 3;

const SPACES: FileSpace[] = [
  { name: 'user', kind: 'user', access: 'rw', usedBytes: GiB, usedFiles: 12, maxBytes: 50 * GiB, maxFiles: 1_000_000 },
  { name: 'account:lab', kind: 'account', access: 'ro', usedBytes: 0, usedFiles: 0, maxBytes: -1, maxFiles: -1 },
  { name: 'public', kind: 'public', access: 'ro', usedBytes: 2048, usedFiles: 1, maxBytes: 100 * GiB, maxFiles: 1_000_000 },
];

const entry = (name: string, type: FileEntry['type'], size = 0, folder = ''): FileEntry => ({
  name,
  path: `${folder}/${name}`,
  type,
  size,
  modified: '2026-12-01T10:00:00Z',
});

const TRASH: TrashEntry[] = [
  { id: 4, path: '/old', type: 'folder', bytes: 4096, files: 3, deletedAt: '2026-12-01T10:00:00Z', expiresAt: '2026-12-08T10:00:00Z' },
];

type Reply = { status: number; body: unknown } | 'never';
let replies: Record<string, Reply>;
let requests: { method: string; path: string }[];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

/** A stand-in for XMLHttpRequest: records each upload and lets the test answer it. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  status = 0;
  responseText = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  getResponseHeader() {
    return this.status >= 400 ? 'application/problem+json' : 'application/json';
  }
  send() {
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

beforeEach(() => {
  requests = [];
  FakeXhr.sent = [];
  replies = {
    'GET /api/v1/spaces': { status: 200, body: SPACES },
    'GET /api/v1/files/user': {
      status: 200,
      body: { space: 'user', path: '/', items: [entry('data', 'folder'), entry('notes.txt', 'file', 1536)], nextCursor: 'c1', total: 3 },
    },
    'GET /api/v1/files/user?cursor=c1': {
      status: 200,
      body: { space: 'user', path: '/', items: [entry('weights.pt', 'file', 3 * GiB)], nextCursor: null, total: 3 },
    },
    'GET /api/v1/files/user/data': { status: 200, body: { space: 'user', path: '/data', items: [], nextCursor: null, total: 0 } },
    'GET /api/v1/files/public': {
      status: 200,
      body: {
        space: 'public',
        path: '/',
        items: [entry('datasets', 'folder'), entry('README.md', 'file', 2048)],
        nextCursor: null,
        total: 2,
      },
    },
    'GET /api/v1/trash/user': { status: 200, body: TRASH },
    'DELETE /api/v1/files/user/data?recursive=true': { status: 200, body: { ...TRASH[0], id: 5, path: '/data' } },
  };
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = String(input);
      requests.push({ method, path });
      const reply = replies[`${method} ${path}`];
      if (reply === 'never') return new Promise<Response>(() => {});
      return reply
        ? json(reply.status, reply.body)
        : json(404, { title: 'Not Found', status: 404, code: 'NotFound', detail: 'no such path' });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAt(route: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path="/files" element={<FilesPage />} />
          <Route path="/files/:space/*" element={<FilesPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const names = () => screen.getAllByTestId('file-row').map((r) => r.dataset.name);

describe('FilesPage', () => {
  it('shows loading while the spaces are asked for', () => {
    replies['GET /api/v1/spaces'] = 'never';
    renderAt('/files/user');
    expect(screen.getByRole('status').textContent).toContain('Loading');
  });

  it('shows the problem detail when the spaces cannot be read', async () => {
    replies['GET /api/v1/spaces'] = {
      status: 503,
      body: { title: 'Service Unavailable', status: 503, detail: 'the volume is not mounted' },
    };
    renderAt('/files/user');
    expect((await screen.findByTestId('error-state')).textContent).toContain('the volume is not mounted');
  });

  it('opens the first space when none is named, with each space and its usage in units', async () => {
    renderAt('/files');
    await screen.findByTestId('file-table');
    const mine = within(screen.getByTestId('space-user'));
    expect(mine.getByText('My files')).toBeTruthy();
    expect(mine.getByText('1 GiB of 50 GiB')).toBeTruthy();
    expect(mine.getByText('12 of 1,000,000')).toBeTruthy();
    expect(screen.getByTestId('space-user').getAttribute('aria-current')).toBe('page');
    expect(within(screen.getByTestId('space-account:lab')).getByText('0 B (no limit)')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'My files: Size' }).getAttribute('aria-valuenow')).toBe(String(GiB));
  });

  it('lists a folder folders first with sizes in units, and loads the next page by its cursor', async () => {
    renderAt('/files/user');
    await screen.findByTestId('file-table');
    expect(names()).toEqual(['data', 'notes.txt']);
    expect(screen.getAllByTestId('file-size').map((c) => c.textContent)).toEqual(['—', '1.5 KiB']);
    expect(screen.getByTestId('file-count').textContent).toBe('2 of 3 entries');
    expect(screen.getAllByTestId('file-download')[0]!.getAttribute('href')).toBe('/api/v1/files/user/data?format=zip');
    fireEvent.click(screen.getByTestId('load-more'));
    await waitFor(() => expect(names()).toEqual(['data', 'notes.txt', 'weights.pt']));
    expect(screen.getAllByTestId('file-size')[2]!.textContent).toBe('3 GiB');
    expect(screen.queryByTestId('load-more')).toBeNull();
    expect(screen.getAllByTestId('file-move')).toHaveLength(3);
  });

  it('says an empty folder is empty, under breadcrumbs back to the root', async () => {
    renderAt('/files/user/data');
    expect((await screen.findByTestId('empty-state')).textContent).toContain('This folder is empty.');
    const crumbs = within(screen.getByTestId('breadcrumbs'));
    expect(crumbs.getByRole('link', { name: 'My files' }).getAttribute('href')).toBe('/files/user');
    expect(crumbs.getByText('data').getAttribute('aria-current')).toBe('page');
  });

  it('shows a folder that cannot be listed with its problem detail', async () => {
    renderAt('/files/user/gone');
    expect((await screen.findByTestId('error-state')).textContent).toContain('no such path');
  });

  it('offers no write action in a read-only space, only downloads', async () => {
    renderAt('/files/public');
    await screen.findByTestId('file-table');
    expect(names()).toEqual(['datasets', 'README.md']);
    expect(screen.getByTestId('read-only-note')).toBeTruthy();
    for (const id of ['upload-files', 'upload-folder', 'new-folder', 'file-move', 'file-copy', 'file-delete']) {
      expect(screen.queryByTestId(id)).toBeNull();
    }
    expect(screen.getAllByTestId('file-download')).toHaveLength(2);
  });

  it('deletes a folder recursively after saying it goes to the trash for the days the trash keeps things', async () => {
    renderAt('/files/user');
    await screen.findByTestId('file-table');
    fireEvent.click(screen.getAllByTestId('file-delete')[0]!);
    const dialog = within(screen.getByTestId('delete-dialog'));
    expect(dialog.getByTestId('delete-recursive')).toBeTruthy();
    await waitFor(() => expect(dialog.getByTestId('delete-trash-note').textContent).toContain('for 7 days'));
    fireEvent.click(dialog.getByTestId('delete-confirm'));
    await screen.findByTestId('trashed-note');
    expect(requests).toContainEqual({ method: 'DELETE', path: '/api/v1/files/user/data?recursive=true' });
    expect(screen.queryByTestId('delete-dialog')).toBeNull();
  });

  it('lists the trash and restores an entry', async () => {
    replies['POST /api/v1/trash/user/4/restore'] = { status: 200, body: entry('old', 'folder') };
    renderAt('/files/user?view=trash');
    const row = within(await screen.findByTestId('trash-row-4'));
    expect(row.getByText('4 KiB · 3 entries')).toBeTruthy();
    fireEvent.click(row.getByTestId('restore-4'));
    await waitFor(() => expect(requests).toContainEqual({ method: 'POST', path: '/api/v1/trash/user/4/restore' }));
  });

  it('shows a restore refused for a conflict with its detail', async () => {
    replies['POST /api/v1/trash/user/4/restore'] = {
      status: 409,
      body: { title: 'Conflict', status: 409, code: 'AlreadyExists', detail: '/old already exists in user' },
    };
    renderAt('/files/user?view=trash');
    fireEvent.click(await screen.findByTestId('restore-4'));
    expect((await screen.findByTestId('file-error')).textContent).toContain('/old already exists in user');
  });

  it('uploads with progress, shows a quota refusal with its numbers, and replaces on a conflict', async () => {
    renderAt('/files/user/data');
    await screen.findByTestId('empty-state');
    const input = screen.getByTestId('upload-files-input') as HTMLInputElement;
    const big = new File([new Uint8Array(2048)], 'big.bin');
    const old = new File([new Uint8Array(10)], 'old.txt');
    fireEvent.change(input, { target: { files: [big, old] } });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    const [first, second] = FakeXhr.sent as [FakeXhr, FakeXhr];
    expect(first.method).toBe('PUT');
    expect(first.url).toBe('/api/v1/files/user/data/big.bin');
    expect(first.headers['X-Requested-With']).toBe('crater');

    act(() => first.upload.onprogress?.({ loaded: 1024, total: 2048, lengthComputable: true }));
    const items = () => screen.getAllByTestId('upload-item');
    expect(within(items()[0]!).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('1024');
    expect(items()[0]!.textContent).toContain('1 KiB / 2 KiB');

    act(() =>
      first.answer(413, {
        title: 'Content too large',
        status: 413,
        code: 'FileQuotaExceeded',
        detail: 'over quota',
        reasons: [
          {
            code: 'FileQuotaExceeded',
            message: 'over quota',
            numbers: { usedBytes: 49 * GiB, addBytes: 2 * GiB, limitBytes: 50 * GiB, usedFiles: 12, addFiles: 1, limitFiles: 1000000 },
          },
        ],
      }),
    );
    await waitFor(() => expect(items()[0]!.dataset.status).toBe('failed'));
    expect(within(items()[0]!).getByTestId('upload-error').textContent).toBe(
      'The space holds 49 GiB; 2 GiB more would exceed its quota of 50 GiB',
    );
    expect(within(items()[0]!).queryByTestId('upload-replace')).toBeNull();

    act(() =>
      second.answer(409, { title: 'Conflict', status: 409, code: 'AlreadyExists', detail: '/data/old.txt already exists in user' }),
    );
    await waitFor(() => expect(items()[1]!.dataset.status).toBe('failed'));
    fireEvent.click(within(items()[1]!).getByTestId('upload-replace'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(3));
    expect(FakeXhr.sent[2]!.url).toBe('/api/v1/files/user/data/old.txt?overwrite=true');
    act(() => FakeXhr.sent[2]!.answer(201, entry('old.txt', 'file', 10, '/data')));
    await waitFor(() => expect(items()[1]!.dataset.status).toBe('done'));
  });

  it('cancels a running upload and retries it', async () => {
    renderAt('/files/user/data');
    await screen.findByTestId('empty-state');
    fireEvent.change(screen.getByTestId('upload-files-input'), { target: { files: [new File(['x'], 'a.txt')] } });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    fireEvent.click(screen.getByTestId('upload-cancel'));
    expect(screen.getByTestId('upload-item').dataset.status).toBe('cancelled');
    fireEvent.click(screen.getByTestId('upload-retry'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(screen.getByTestId('upload-item').dataset.status).toBe('uploading');
  });
});

describe('FilesPage on a folder of more than one page', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => entry(`f${String(i).padStart(5, '0')}.bin`, 'file', i)).reverse();

  beforeEach(() => installFakeEventSource());

  it("reads the whole folder from its event stream, filling the table as entries come, in the pages' order", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderAt('/files/user');
      await screen.findByTestId('file-table');
      const source = FakeEventSource.latest('/api/v1/files/user')!;
      expect(source.url).toBe('/api/v1/files/user');
      act(() => source.open());
      act(() => {
        source.emit('entry', JSON.stringify(entry('weights.pt', 'file', 3 * GiB)));
        source.emit('entry', JSON.stringify(entry('notes.txt', 'file', 1536)));
      });
      act(() => vi.advanceTimersByTime(FLUSH_MS));
      expect(names()).toEqual(['notes.txt', 'weights.pt']);
      expect(screen.getByTestId('file-streaming').textContent).toContain('Reading the folder: 2 of 3 entries');
      act(() => {
        source.emit('entry', JSON.stringify(entry('data', 'folder')));
        source.emit('end', JSON.stringify({ count: 3 }));
      });
      expect(names()).toEqual(['data', 'notes.txt', 'weights.pt']);
      expect(source.readyState).toBe(FakeEventSource.CLOSED);
      expect(screen.queryByTestId('file-streaming')).toBeNull();
      expect(screen.queryByTestId('load-more')).toBeNull();
      expect(screen.getByTestId('file-count').textContent).toBe('3 of 3 entries');
      expect(requests.filter((r) => r.path.includes('cursor='))).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows 500 rows of 10,000 at first, more on request, and filters them by name', async () => {
    replies['GET /api/v1/files/user'] = {
      status: 200,
      body: { space: 'user', path: '/', items: many(10_000).slice(-200).reverse(), nextCursor: 'c1', total: 10_000 },
    };
    renderAt('/files/user');
    await screen.findByTestId('file-table');
    const source = FakeEventSource.latest('/api/v1/files/user')!;
    act(() => {
      for (const e of many(10_000)) source.emit('entry', JSON.stringify(e));
      source.emit('end', JSON.stringify({ count: 10_000 }));
    });
    expect(screen.getAllByTestId('file-row')).toHaveLength(500);
    expect(names()[0]).toBe('f00000.bin');
    expect(screen.getByTestId('file-count').textContent).toBe('500 of 10,000 entries');
    fireEvent.click(screen.getByTestId('show-more'));
    expect(screen.getAllByTestId('file-row')).toHaveLength(1000);
    fireEvent.change(screen.getByTestId('file-filter'), { target: { value: 'F0999' } });
    expect(names()).toEqual(Array.from({ length: 10 }, (_, i) => `f0999${i}.bin`));
    expect(screen.getByTestId('file-count').textContent).toBe('10 of 10 matching, 10,000 entries in all');
    fireEvent.change(screen.getByTestId('file-filter'), { target: { value: 'nothing like it' } });
    expect(screen.getByTestId('empty-state').textContent).toContain('nothing like it');
  });

  it('falls back to page by page when the stream breaks', async () => {
    renderAt('/files/user');
    await screen.findByTestId('file-table');
    act(() => FakeEventSource.latest('/api/v1/files/user')!.fail());
    expect(screen.getByTestId('stream-failed')).toBeTruthy();
    expect(names()).toEqual(['data', 'notes.txt']);
    fireEvent.click(screen.getByTestId('load-more'));
    await waitFor(() => expect(names()).toEqual(['data', 'notes.txt', 'weights.pt']));
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('does not open a stream for a folder of one page', async () => {
    renderAt('/files/public');
    await screen.findByTestId('file-table');
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(screen.queryByTestId('file-filter')).toBeNull();
  });
});
