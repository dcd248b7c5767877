import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { TemplateSummary, User } from '../../api/types';
import { CurrentUserContext } from '../auth/session';
import { TemplatesPage } from './TemplatesPage';

function summary(overrides: Partial<TemplateSummary>): TemplateSummary {
  return {
    id: 'x',
    name: 'X',
    description: '',
    kind: 'custom',
    builtin: false,
    visibility: 'private',
    account: null,
    owner: 'alice',
    version: 1,
    updatedAt: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

const TEMPLATES: TemplateSummary[] = [
  summary({
    id: 'jupyter-pytorch',
    name: 'JupyterLab + PyTorch',
    description: 'A notebook with PyTorch.',
    kind: 'jupyter',
    builtin: true,
    visibility: 'public',
    owner: null,
    version: 3,
  }),
  summary({ id: 'mine', name: 'My sweep', kind: 'pytorch', version: 4 }),
  summary({ id: 'lab', name: 'Lab notebook', visibility: 'account', account: 'vision-lab', owner: 'bob' }),
];

const ALICE: User = { id: 'u1', username: 'alice', displayName: 'Alice', role: 'user' };

let requests: { method: string; path: string }[] = [];
let listStatus = 200;
let items: TemplateSummary[] = [];

beforeEach(() => {
  requests = [];
  listStatus = 200;
  items = [...TEMPLATES];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = String(input);
      requests.push({ method, path });
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (method === 'GET' && path === '/api/v1/templates') {
        return listStatus === 200 ? json(200, { items }) : json(listStatus, { title: 'Server Error', detail: 'database down' });
      }
      if (method === 'GET' && path === '/api/v1/templates/mine/versions') {
        return json(200, {
          items: [
            { version: 3, createdAt: '2025-01-01T00:00:00Z', createdBy: 'alice' },
            { version: 4, createdAt: '2025-02-01T00:00:00Z', createdBy: 'alice' },
          ],
        });
      }
      if (method === 'DELETE' && path === '/api/v1/templates/mine') {
        items = items.filter((t) => t.id !== 'mine');
        return new Response(null, { status: 204 });
      }
      return json(404, { title: 'Not Found' });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage(user: User = ALICE) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={user}>
        <MemoryRouter>
          <TemplatesPage />
        </MemoryRouter>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

describe('TemplatesPage', () => {
  it('shows each template as a card with its badge, owner, version and a link to use it', async () => {
    renderPage();
    const builtin = within(await screen.findByTestId('template-card-jupyter-pytorch'));
    expect(builtin.getByText('JupyterLab + PyTorch')).toBeTruthy();
    expect(builtin.getByText('A notebook with PyTorch.')).toBeTruthy();
    expect(builtin.getByText(/Jupyter notebook · v3/)).toBeTruthy();
    expect(builtin.getByTestId('template-badge').dataset.badge).toBe('builtin');
    expect(builtin.getByTestId('template-badge').textContent).toBe('Built-in');
    expect(builtin.getByTestId('template-owner').textContent).toBe('Provided by Crater');
    expect(builtin.getByTestId('template-use-jupyter-pytorch').getAttribute('href')).toBe('/jobs/new?template=jupyter-pytorch');
    expect(builtin.queryByTestId('template-delete-jupyter-pytorch')).toBeNull();
    expect(builtin.queryByTestId('template-versions-jupyter-pytorch')).toBeNull();

    const lab = within(screen.getByTestId('template-card-lab'));
    expect(lab.getByTestId('template-badge').dataset.badge).toBe('account');
    expect(lab.getByTestId('template-owner').textContent).toBe('by bob');
    expect(lab.getByText(/shared with vision-lab/)).toBeTruthy();
    expect(lab.queryByTestId('template-delete-lab')).toBeNull();

    const mine = within(screen.getByTestId('template-card-mine'));
    expect(mine.getByTestId('template-badge').dataset.badge).toBe('private');
    expect(mine.getByTestId('template-delete-mine')).toBeTruthy();
  });

  it('lets a platform admin manage shared templates but not built-in ones', async () => {
    renderPage({ ...ALICE, username: 'root', role: 'admin' });
    await screen.findByTestId('template-card-lab');
    expect(screen.getByTestId('template-delete-lab')).toBeTruthy();
    expect(screen.queryByTestId('template-delete-jupyter-pytorch')).toBeNull();
    expect(screen.queryByTestId('template-delete-mine')).toBeNull();
  });

  it('lists the versions, newest first, each usable', async () => {
    renderPage();
    const toggle = await screen.findByTestId('template-versions-mine');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const list = await screen.findByTestId('template-versions-list-mine');
    const rows = within(list).getAllByTestId('template-version');
    expect(rows.map((r) => r.dataset.version)).toEqual(['4', '3']);
    expect(within(rows[0]!).getByText('latest')).toBeTruthy();
    expect(screen.getByTestId('template-use-mine-v3').getAttribute('href')).toBe('/jobs/new?template=mine&version=3');
    fireEvent.click(toggle);
    expect(screen.queryByTestId('template-versions-list-mine')).toBeNull();
  });

  it('deletes a template only after confirmation', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('template-delete-mine'));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByTestId('template-delete-mine-confirm'));
    expect((await screen.findByTestId('template-deleted')).textContent).toBe('Template “My sweep” deleted.');
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/v1/templates/mine']);
    await screen.findByTestId('template-card-lab');
    expect(screen.queryByTestId('template-card-mine')).toBeNull();
  });

  it('shows an error with a retry when the list fails, and an empty state', async () => {
    listStatus = 500;
    renderPage();
    expect((await screen.findByTestId('error-state')).textContent).toContain('Could not load the templates.');
    listStatus = 200;
    items = [];
    fireEvent.click(screen.getByText('Retry'));
    expect((await screen.findByTestId('empty-state')).textContent).toBe('No templates yet.');
  });
});
