import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as jobsApi from '../../api/jobs';
import type { GpuCardPoint, GpuMetricSample } from '../../api/types';
import { FakeEventSource, installFakeEventSource } from '../../test/fakeEventSource';
import { makeUtilisation } from '../../test/gpuFixtures';
import { JobGpuUtilisation } from './JobGpuUtilisation';

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return { ...actual, getJobGpuUtilisation: vi.fn() };
});

const api = vi.mocked(jobsApi);

function card(index: number, utilisation: number | null, extra: Partial<GpuCardPoint> = {}): GpuCardPoint {
  return {
    node: 'gpu-a',
    index,
    uuid: `GPU-${index}`,
    model: 'NVIDIA A100 80GB',
    pod: 'c-j1-main-0',
    utilisation,
    memoryUsedMiB: 40960,
    memoryTotalMiB: 81920,
    powerWatts: 251.26,
    temperatureC: 61,
    ...extra,
  };
}

function sample(seconds: number, cards: GpuCardPoint[]): GpuMetricSample {
  return { at: new Date(Date.parse('2026-11-30T12:00:00Z') + seconds * 1000).toISOString(), cards };
}

function renderChart() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <JobGpuUtilisation jobId="j1" />
    </QueryClientProvider>,
  );
  return FakeEventSource.latest('/jobs/j1/gpu-metrics/stream')!;
}

function send(stream: FakeEventSource, name: string, data: unknown, id = '') {
  act(() => stream.emit(name, JSON.stringify(data), id));
}

beforeEach(() => {
  vi.clearAllMocks();
  installFakeEventSource();
  api.getJobGpuUtilisation.mockResolvedValue(makeUtilisation());
});

afterEach(() => vi.unstubAllGlobals());

describe('JobGpuUtilisation', () => {
  it('loads, then draws the window and each live sample per card with its readings and units', async () => {
    const stream = renderChart();
    expect(screen.getByRole('status')).toBeTruthy();
    act(() => stream.open());
    send(stream, 'window', {
      job: 'j1',
      stepSeconds: 5,
      samples: [sample(0, [card(1, 20), card(0, 40, { node: null, uuid: null, model: null, memoryUsedMiB: null })])],
      unavailable: null,
    });
    send(stream, 'sample', sample(5, [card(0, 60), card(1, 80)]), '1764504005000');
    const charts = await screen.findAllByTestId('job-gpu-series');
    expect(charts.map((c) => `${c.dataset.pod}/${c.dataset.accelerator}`)).toEqual(['c-j1-main-0/0', 'c-j1-main-0/1']);
    const first = charts[0]!;
    expect(first.dataset.samples).toBe('2');
    expect(first.dataset.latest).toBe('60');
    expect(within(first).getByText('gpu-a · GPU 0 · NVIDIA A100 80GB')).toBeTruthy();
    expect(first.textContent).toContain('peak 60 % · mean 50 %');
    expect(within(first).getByTestId('job-gpu-readings').textContent).toBe('Memory used / total40 / 80 GiBPower251.3 WTemperature61 °C');
    // Two points over the five seconds shown; the idle threshold (5 %) dashed.
    expect(first.querySelector('polyline')?.getAttribute('points')).toBe('0,38.4 300,25.6');
    expect(await screen.findByText('idle below 5 %')).toBeTruthy();
    expect(screen.getByTestId('job-gpu-status').textContent).toBe('Live · a sample every 5 s');
  });

  it('says when there are no samples yet, and why the source cannot be read', () => {
    const stream = renderChart();
    send(stream, 'window', { job: 'j1', stepSeconds: 5, samples: [], unavailable: null });
    expect(screen.getByTestId('job-gpu-empty').textContent).toBe('No samples yet.');
    send(stream, 'unavailable', { at: '2026-11-30T12:00:05Z', reason: 'Prometheus down' });
    expect(screen.getByTestId('job-gpu-unavailable').textContent).toBe('The utilisation cannot be read now: Prometheus down');
  });

  it('shows reconnecting (an error before anything arrived) and keeps its points across a reconnect', () => {
    const stream = renderChart();
    act(() => stream.fail(false));
    expect(screen.getByTestId('job-gpu-error').textContent).toBe('Could not follow the GPU metrics; retrying.');
    send(stream, 'window', { job: 'j1', stepSeconds: 5, samples: [sample(0, [card(0, 10)])], unavailable: null });
    act(() => stream.fail(false));
    expect(screen.getByTestId('job-gpu-status').dataset.status).toBe('reconnecting');
    // The browser reconnects with Last-Event-ID: a window repeating a shown sample adds nothing twice.
    send(stream, 'window', { job: 'j1', stepSeconds: 5, samples: [sample(0, [card(0, 10)]), sample(5, [card(0, 30)])], unavailable: null });
    expect(screen.getByTestId('job-gpu-series').dataset.samples).toBe('2');
    expect(screen.getByTestId('job-gpu-status').dataset.status).toBe('live');
  });

  it('stops following when the job ends', () => {
    const stream = renderChart();
    send(stream, 'window', { job: 'j1', stepSeconds: 5, samples: [sample(0, [card(0, 10)])], unavailable: null });
    send(stream, 'end', { job: 'j1', state: 'Stopped' });
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);
    expect(screen.getByTestId('job-gpu-status').textContent).toBe('The job has ended: its last samples are shown');
    expect(screen.getByTestId('job-gpu-series').dataset.samples).toBe('1');
  });
});
