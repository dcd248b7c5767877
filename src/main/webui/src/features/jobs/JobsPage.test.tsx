import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import * as jobsApi from '../../api/jobs';
import { FakeEventSource, installFakeEventSource } from '../../test/fakeEventSource';
import { makeJob } from '../../test/jobFixtures';
import { JobsPage } from './JobsPage';

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return { ...actual, listJobs: vi.fn() };
});
vi.mock('../../api/templates', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/templates')>();
  return {
    ...actual,
    listTemplates: () =>
      Promise.resolve({
        items: [
          {
            id: 'mine',
            name: 'My run',
            description: 'x',
            kind: 'custom',
            builtin: false,
            visibility: 'private',
            account: null,
            owner: 'alice',
            version: 1,
            updatedAt: '',
          },
          {
            id: 'jupyter-pytorch',
            name: 'JupyterLab + PyTorch',
            description: 'A notebook',
            kind: 'jupyter',
            builtin: true,
            visibility: 'public',
            account: null,
            owner: null,
            version: 1,
            updatedAt: '',
          },
        ],
      }),
  };
});
vi.mock('../../api/acceleratorModels', () => ({ listAcceleratorModels: () => Promise.resolve({ items: [] }) }));
vi.mock('../me/useCurrentAccount', () => ({ useCurrentAccount: () => ({ account: 'vision-lab', select: () => undefined }) }));

const api = vi.mocked(jobsApi);

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <JobsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('JobsPage', () => {
  it('passes the kind and "mine" filters to the server', async () => {
    api.listJobs.mockResolvedValue({ items: [makeJob('a')], nextCursor: null });
    renderPage();
    await screen.findByTestId('job-table');
    expect(api.listJobs).toHaveBeenLastCalledWith(
      expect.objectContaining({ account: 'vision-lab', state: '', kind: '', mine: false }),
      expect.anything(),
    );
    fireEvent.change(screen.getByTestId('jobs-kind'), { target: { value: 'pytorch' } });
    fireEvent.click(screen.getByTestId('jobs-mine'));
    await waitFor(() =>
      expect(api.listJobs).toHaveBeenLastCalledWith(
        expect.objectContaining({ account: 'vision-lab', state: '', kind: 'pytorch', mine: true }),
        expect.anything(),
      ),
    );
  });

  it('shows the stream status and applies job events to the rows', async () => {
    installFakeEventSource();
    api.listJobs.mockResolvedValue({ items: [makeJob('a'), makeJob('b')], nextCursor: null });
    renderPage();
    await screen.findByTestId('job-table');
    expect(screen.getByTestId('jobs-live').dataset.status).toBe('connecting');
    const stream = FakeEventSource.latest('/api/v1/events');
    expect(stream?.url).toBe('/api/v1/events?topics=jobs');
    act(() => stream?.open());
    expect(screen.getByTestId('jobs-live').dataset.status).toBe('live');

    const calls = api.listJobs.mock.calls.length;
    act(() => stream?.emit('job', JSON.stringify(makeJob('b', { state: 'Succeeded' }))));
    const rowB = () => screen.getAllByTestId('job-row').find((r) => r.dataset.id === 'b');
    await waitFor(() => expect(rowB()?.dataset.state).toBe('Succeeded'));
    expect(within(rowB()!).getByTestId('status-badge').dataset.status).toBe('Succeeded');
    expect(api.listJobs.mock.calls.length).toBe(calls);

    // A job the list does not show yet brings a refetch.
    api.listJobs.mockResolvedValue({ items: [makeJob('c'), makeJob('a'), makeJob('b')], nextCursor: null });
    act(() => stream?.emit('job', JSON.stringify(makeJob('c', { createdAt: '2025-03-05T00:00:00Z' }))));
    await waitFor(() => expect(screen.getAllByTestId('job-row').map((r) => r.dataset.id)).toEqual(['c', 'a', 'b']));

    act(() => stream?.fail(false));
    expect(screen.getByTestId('jobs-live').dataset.status).toBe('reconnecting');
  });

  it('offers the templates, built-in first, when the account has no jobs yet', async () => {
    api.listJobs.mockResolvedValue({ items: [], nextCursor: null });
    renderPage();
    await screen.findByTestId('starter-templates');
    const links = screen.getAllByTestId('starter-template');
    expect(links.map((l) => l.dataset.id)).toEqual(['jupyter-pytorch', 'mine']);
    expect(links[0]?.getAttribute('href')).toBe('/jobs/new?template=jupyter-pytorch');
  });

  it('offers no templates when filters hide the jobs', async () => {
    api.listJobs.mockResolvedValue({ items: [], nextCursor: null });
    renderPage();
    await screen.findByTestId('starter-templates');
    fireEvent.change(screen.getByTestId('jobs-kind'), { target: { value: 'pytorch' } });
    expect(await screen.findByText('No jobs match these filters.')).toBeTruthy();
    expect(screen.queryByTestId('starter-templates')).toBeNull();
  });
});
