import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../../api/errors';
import * as jobsApi from '../../api/jobs';
import { makeUtilisation } from '../../test/gpuFixtures';
import { JobGpuUtilisation } from './JobGpuUtilisation';
import { GPU_UTILISATION_POLL_MS, jobGpuQuery } from './queries';

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return { ...actual, getJobGpuUtilisation: vi.fn() };
});

const api = vi.mocked(jobsApi);

function renderChart(startedAt: string | null = '2026-11-30T08:00:00Z') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <JobGpuUtilisation jobId="j1" startedAt={startedAt} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('JobGpuUtilisation', () => {
  it('draws one line per accelerator, in order, with the threshold and the figures', async () => {
    api.getJobGpuUtilisation.mockResolvedValue(makeUtilisation());
    renderChart();
    const charts = await screen.findAllByTestId('job-gpu-series');
    expect(api.getJobGpuUtilisation).toHaveBeenCalledWith('j1', null, expect.anything());
    expect(charts.map((c) => `${c.dataset.pod}/${c.dataset.accelerator}`)).toEqual(['c-j1-main-0/0', 'c-j1-main-0/1']);

    const first = charts[0]!;
    expect(first.dataset.samples).toBe('3');
    expect(within(first).getByText('c-j1-main-0 · GPU 0')).toBeTruthy();
    expect(within(first).getByTestId('job-gpu-latest').textContent).toBe('now 60 %');
    expect(first.textContent).toContain('peak 80 % · mean 60 %');
    // Time runs left to right over the two hours, 0–100 % bottom to top in a 300×64 box.
    expect(first.querySelector('polyline')?.getAttribute('points')).toBe('0,12.8 150,38.4 300,25.6');
    expect(first.querySelector('line')?.getAttribute('y1')).toBe('60.8');
    expect(within(first).getByRole('img').getAttribute('aria-label')).toBe(
      'Utilisation of c-j1-main-0 · GPU 0 over the last 2 h: now 60 %, peak 80 %',
    );

    expect(screen.getByTestId('job-gpu').textContent).toContain('Last 2 h · refreshed every 30 s · idle below 5 %');
  });

  it('starts the time axis at the start of a job younger than the window, and shows a lone sample as a dot', async () => {
    api.getJobGpuUtilisation.mockResolvedValue(
      makeUtilisation({
        series: [{ pod: 'c-j1-main-0', accelerator: '0', samples: [{ at: '2026-11-30T11:30:00Z', percent: 50 }] }],
      }),
    );
    renderChart('2026-11-30T11:00:00Z');
    const chart = await screen.findByTestId('job-gpu-series');
    // 11:00 → 12:00: the sample at 11:30 is in the middle.
    expect(chart.querySelector('polyline')?.getAttribute('points')).toBe('150,32 150,32');
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toContain('over the last 1 h');
  });

  it('refreshes every 30 seconds', () => {
    expect(GPU_UTILISATION_POLL_MS).toBe(30_000);
    expect(jobGpuQuery('j1').refetchInterval).toBe(30_000);
  });

  it('says when there are no samples yet', async () => {
    api.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ series: [] }));
    renderChart();
    expect((await screen.findByTestId('job-gpu-empty')).textContent).toBe('No samples yet.');
    expect(screen.queryByTestId('job-gpu-series')).toBeNull();
  });

  it('says why the metrics cannot be read', async () => {
    api.getJobGpuUtilisation.mockResolvedValue(makeUtilisation({ series: [], unavailable: 'Prometheus answered 503' }));
    renderChart();
    expect((await screen.findByTestId('job-gpu-unavailable')).textContent).toBe(
      'The utilisation cannot be read now: Prometheus answered 503',
    );
  });

  it('shows a failed load with a retry', async () => {
    api.getJobGpuUtilisation.mockRejectedValue(
      new ApiError({ status: 500, code: 'Internal', title: 'Internal Server Error', detail: 'boom' }),
    );
    renderChart();
    expect(await screen.findByTestId('error-state')).toBeTruthy();
    api.getJobGpuUtilisation.mockResolvedValue(makeUtilisation());
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByTestId('job-gpu-series')).toHaveLength(2);
  });
});
