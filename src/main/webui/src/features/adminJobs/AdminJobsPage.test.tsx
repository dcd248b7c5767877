import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import * as jobsApi from '../../api/jobs';
import type { User } from '../../api/types';
import { makeJob } from '../../test/jobFixtures';
import { CurrentUserContext } from '../auth/session';
import { AccountJobsPage, AdminJobsPage } from './AdminJobsPage';
import { activeFilters, filterFromSearch, listFilter, searchFromFilter } from './adminJobsFilter';

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return { ...actual, listJobs: vi.fn() };
});
vi.mock('../../api/acceleratorModels', () => ({
  listAcceleratorModels: () =>
    Promise.resolve({
      items: [
        {
          key: 'nvidia-a100-80gb',
          displayName: 'NVIDIA A100 80GB',
          vendor: 'NVIDIA',
          resource: 'nvidia.com/gpu',
          labelKey: '',
          labelValue: '',
          restricted: false,
          memoryMiB: null,
          memoryResource: null,
          retired: false,
          retiredAt: null,
        },
      ],
    }),
}));
vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return {
    ...actual,
    listAccounts: () => Promise.resolve({ items: [], nextCursor: null }),
    listMembers: () => Promise.resolve({ items: [] }),
  };
});
vi.mock('../../api/users', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/users')>();
  return { ...actual, listUsers: () => Promise.resolve({ items: [], nextCursor: null }) };
});

const api = vi.mocked(jobsApi);

describe('adminJobsFilter', () => {
  const cases = [
    { name: 'empty', search: '', expected: { account: '', owner: '', state: '', kind: '', model: '' } },
    {
      name: 'every filter',
      search: 'account=vision-lab&owner=Alice&state=Queued&kind=pytorch&model=nvidia-a100-80gb',
      expected: { account: 'vision-lab', owner: 'alice', state: 'Queued', kind: 'pytorch', model: 'nvidia-a100-80gb' },
    },
    {
      name: 'unknown state and kind dropped',
      search: 'state=Sleeping&kind=quantum',
      expected: { account: '', owner: '', state: '', kind: '', model: '' },
    },
  ];
  it.each(cases)('reads $name', ({ search, expected }) => {
    expect(filterFromSearch(new URLSearchParams(search))).toEqual(expected);
  });
  it('a fixed account wins over the address and stays out of it', () => {
    const f = filterFromSearch(new URLSearchParams('account=other&state=Running'), 'vision-lab');
    expect(f.account).toBe('vision-lab');
    expect(searchFromFilter(f, 'vision-lab').toString()).toBe('state=Running');
    expect(activeFilters(f, 'vision-lab')).toBe(1);
    expect(listFilter(f)).toEqual({ account: 'vision-lab', state: 'Running', kind: '', mine: false, owner: '', model: '' });
  });
});

const ADMIN: User = {
  id: 1,
  username: 'admin',
  displayName: 'Admin',
  email: null,
  role: 'admin',
  disabled: false,
} as unknown as User;

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={ADMIN}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/admin/jobs" element={<AdminJobsPage />} />
            <Route path="/accounts/:slug/jobs" element={<AccountJobsPage />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.listJobs.mockReset();
});

describe('AdminJobsPage', () => {
  it('lists every account with an account column and sends each filter to the server', async () => {
    api.listJobs.mockResolvedValue({
      items: [makeJob('a', { account: 'vision-lab' }), makeJob('b', { account: 'nlp-lab', owner: 'bob' })],
      nextCursor: null,
    });
    renderAt('/admin/jobs');
    await screen.findByTestId('job-table');
    expect(api.listJobs).toHaveBeenLastCalledWith(expect.objectContaining({ account: '', owner: '', model: '' }), expect.anything());
    expect(screen.getAllByTestId('job-account').map((c) => c.textContent)).toEqual(['vision-lab', 'nlp-lab']);

    fireEvent.change(screen.getByTestId('admin-jobs-state'), { target: { value: 'Queued' } });
    await screen.findByTestId('admin-jobs-model');
    await waitFor(() => expect(within(screen.getByTestId('admin-jobs-model')).queryByText('NVIDIA A100 80GB')).not.toBeNull());
    fireEvent.change(screen.getByTestId('admin-jobs-model'), { target: { value: 'nvidia-a100-80gb' } });
    const owner = screen.getByTestId('admin-jobs-owner');
    fireEvent.change(owner, { target: { value: 'Bob' } });
    fireEvent.keyDown(owner, { key: 'Enter' });
    await waitFor(() =>
      expect(api.listJobs).toHaveBeenLastCalledWith(
        expect.objectContaining({ account: '', state: 'Queued', model: 'nvidia-a100-80gb', owner: 'bob' }),
        expect.anything(),
      ),
    );
    expect(screen.getByTestId('where').textContent).toBe('/admin/jobs?owner=bob&state=Queued&model=nvidia-a100-80gb');

    api.listJobs.mockResolvedValue({ items: [], nextCursor: null });
    fireEvent.click(screen.getByTestId('admin-jobs-clear'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/admin/jobs'));
  });

  it("shows one account's jobs without an account filter or column, and says when none match", async () => {
    api.listJobs.mockResolvedValue({ items: [], nextCursor: null });
    renderAt('/accounts/vision-lab/jobs?state=Failed');
    expect(await screen.findByText('Jobs of vision-lab')).toBeTruthy();
    await waitFor(() =>
      expect(api.listJobs).toHaveBeenLastCalledWith(expect.objectContaining({ account: 'vision-lab', state: 'Failed' }), expect.anything()),
    );
    expect(screen.queryByTestId('admin-jobs-account')).toBeNull();
    expect(await screen.findByText(/No jobs/i)).toBeTruthy();
  });
});
