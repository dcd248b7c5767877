import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { GpuCard, GpuHistory, GpuHistoryPoint, GpuOverview } from '../../api/gpus';
import { json, mockFetch, problem, type Answer, type SentRequest } from '../../test/mockFetch';
import { GpusPage } from './GpusPage';

const card = (index: number, extra: Partial<GpuCard> = {}): GpuCard => ({
  index,
  uuid: `GPU-${index}`,
  modelName: 'NVIDIA A100-SXM4-80GB',
  utilisation: 0,
  memoryUsedMiB: 0,
  memoryTotalMiB: 81920,
  powerWatts: 55,
  temperatureC: 30,
  holder: null,
  ...extra,
});

const OVERVIEW: GpuOverview = {
  unavailable: null,
  models: [
    {
      model: 'nvidia-a100-80gb',
      displayName: 'NVIDIA A100 80GB',
      cards: 3,
      allocated: 2,
      free: 1,
      meanUtilisation: 56.5,
      nodes: [{ node: 'a100-0', free: 1 }],
    },
    {
      model: 'nvidia-h100-80gb',
      displayName: 'NVIDIA H100 80GB',
      cards: 1,
      allocated: 0,
      free: 1,
      meanUtilisation: null,
      nodes: [{ node: 'h100-0', free: 1 }],
    },
  ],
  nodes: [
    {
      name: 'a100-0',
      model: 'nvidia-a100-80gb',
      displayName: 'NVIDIA A100 80GB',
      schedulable: true,
      free: 1,
      cards: [
        card(0, {
          utilisation: 73,
          memoryUsedMiB: 40960,
          powerWatts: 306.85,
          temperatureC: 58,
          holder: { job: 'j7k3f9x', jobName: 'ann-train', account: 'vision-lab', owner: 'ann', heldByOtherAccount: false },
        }),
        card(1, {
          utilisation: 40,
          memoryUsedMiB: null,
          memoryTotalMiB: null,
          powerWatts: null,
          temperatureC: null,
          holder: { heldByOtherAccount: true },
        }),
        card(2, { utilisation: null }),
      ],
    },
    {
      name: 'h100-0',
      model: 'nvidia-h100-80gb',
      displayName: 'NVIDIA H100 80GB',
      schedulable: true,
      free: 1,
      cards: [card(0)],
    },
  ],
};

const hours = (from: string, values: [number, number, number][], partialLast = false): GpuHistoryPoint[] =>
  values.map(([allocated, measured, used], i) => ({
    hour: new Date(Date.parse(from) + i * 3_600_000).toISOString().replace('.000', ''),
    allocated,
    measured,
    used,
    efficiency: measured > 0 ? used / measured : null,
    partial: partialLast && i === values.length - 1,
  }));

/** Three hours of the A100s (the last one unfinished) and an H100 nobody held. */
const HISTORY: GpuHistory = {
  hours: 3,
  from: '2026-12-01T08:00:00Z',
  to: '2026-12-01T10:30:00Z',
  models: [
    {
      model: 'nvidia-a100-80gb',
      displayName: 'NVIDIA A100 80GB',
      total: 3,
      points: hours(
        '2026-12-01T08:00:00Z',
        [
          [2, 2, 1.5],
          [0, 0, 0],
          [1, 0, 0],
        ],
        true,
      ),
    },
    {
      model: 'nvidia-h100-80gb',
      displayName: 'NVIDIA H100 80GB',
      total: 1,
      points: hours(
        '2026-12-01T08:00:00Z',
        [
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
        true,
      ),
    },
  ],
};

const IDLE: GpuHistory = { ...HISTORY, models: [HISTORY.models[1]!] };

function renderPage(answer: Answer | Answer[], path = '/gpus', history: Answer | Answer[] = json(HISTORY)) {
  const sent = mockFetch({ 'GET /api/v1/cluster/gpus': answer, 'GET /api/v1/cluster/gpu-history': history });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <GpusPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

/** The requests for the cards, without the history's. */
const overviews = (sent: SentRequest[]) => sent.filter((r) => r.path === '/api/v1/cluster/gpus');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('GpusPage', () => {
  it('shows each card with its readings and holder, and each model as bars', async () => {
    renderPage(json(OVERVIEW));
    expect(screen.getAllByRole('status').length).toBeGreaterThan(0);
    const nodes = await screen.findAllByTestId('gpu-node');
    expect(nodes.map((n) => n.dataset.node)).toEqual(['a100-0', 'h100-0']);
    expect(within(nodes[0]!).getByText('NVIDIA A100 80GB · 1 of 3 free')).toBeTruthy();

    const [held, hidden, free] = within(nodes[0]!).getAllByTestId('gpu-card') as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(held).getByTestId('gpu-util').textContent).toBe('73%');
    expect(within(held).getByRole('progressbar', { name: 'Utilisation of GPU 0' }).getAttribute('aria-valuenow')).toBe('73');
    expect(within(held).getByTestId('gpu-memory').textContent).toBe('40 / 80 GiB');
    expect(within(held).getByTestId('gpu-power').textContent).toBe('307 W');
    expect(within(held).getByTestId('gpu-temp').textContent).toBe('58 °C');
    expect(within(held).getByRole('link', { name: 'ann-train' }).getAttribute('href')).toBe('/jobs/j7k3f9x');
    expect(within(held).getByTestId('gpu-holder').textContent).toBe('ann-train ann · vision-lab');

    // Readings the exporter does not have are shown as missing, never as 0.
    expect(within(hidden).getByTestId('gpu-memory').textContent).toBe('—');
    expect(within(hidden).getByTestId('gpu-power').textContent).toBe('—');
    expect(within(hidden).getByTestId('gpu-temp').textContent).toBe('—');
    expect(within(hidden).getByTestId('gpu-holder').textContent).toBe('another account');
    expect(within(hidden).queryByRole('link')).toBeNull();
    expect(within(free).getByTestId('gpu-util').textContent).toBe('no reading');
    expect(within(free).getByTestId('gpu-holder').textContent).toBe('free');

    const models = screen.getAllByTestId('gpu-model');
    const a100 = within(models[0]!);
    expect(a100.getByTestId('gpu-model-counts').textContent).toBe('2 allocated · 1 free · 3 cards');
    expect(a100.getByRole('progressbar', { name: 'Allocated cards of NVIDIA A100 80GB' }).getAttribute('aria-valuenow')).toBe('2');
    expect(a100.getByRole('progressbar', { name: 'Free cards of NVIDIA A100 80GB' }).getAttribute('aria-valuemax')).toBe('3');
    expect(a100.getByTestId('gpu-model-mean').textContent).toBe('Mean utilisation of allocated cards: 57%');
    expect(within(models[1]!).getByTestId('gpu-model-mean').textContent).toBe('Mean utilisation of allocated cards: no reading');
  });

  it('sends the filter as query parameters and shows when no node matches', async () => {
    const sent = renderPage([json(OVERVIEW), json({ ...OVERVIEW, nodes: [] })]);
    await screen.findAllByTestId('gpu-node');
    expect(overviews(sent)[0]!.query.toString()).toBe('');
    fireEvent.change(screen.getByTestId('gpu-min-free'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('gpu-model-select'), { target: { value: 'nvidia-a100-80gb' } });
    fireEvent.submit(screen.getByTestId('gpu-filter'));
    await screen.findByText('No node matches the filter');
    const last = overviews(sent)[overviews(sent).length - 1]!;
    expect(last.query.get('minFree')).toBe('2');
    expect(last.query.get('model')).toBe('nvidia-a100-80gb');
  });

  it('reads the filter from the address', async () => {
    const sent = renderPage(json(OVERVIEW), '/gpus?minFree=4&model=nvidia-h100-80gb');
    await screen.findAllByTestId('gpu-node');
    expect(overviews(sent)[0]!.query.get('minFree')).toBe('4');
    expect(overviews(sent)[0]!.query.get('model')).toBe('nvidia-h100-80gb');
    expect((screen.getByTestId('gpu-min-free') as HTMLInputElement).value).toBe('4');
  });

  it('refreshes every 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const busier = structuredClone(OVERVIEW);
    busier.nodes[0]!.cards[0]!.utilisation = 95;
    const sent = renderPage([json(OVERVIEW), json(busier)]);
    await screen.findAllByTestId('gpu-node');
    expect(screen.getAllByTestId('gpu-util')[0]!.textContent).toBe('73%');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    await waitFor(() => expect(screen.getAllByTestId('gpu-util')[0]!.textContent).toBe('95%'));
    expect(overviews(sent)).toHaveLength(2);
  });

  it('says why the metrics are unavailable', async () => {
    renderPage(json({ unavailable: 'Prometheus at http://prom:9090/ could not be read: refused', models: [], nodes: [] }));
    expect((await screen.findByTestId('gpus-unavailable')).textContent).toBe(
      'GPU metrics are unavailable: Prometheus at http://prom:9090/ could not be read: refused',
    );
    expect(screen.queryByTestId('empty-state')).toBeNull();
  });

  it('shows an empty cluster', async () => {
    renderPage(json({ unavailable: null, models: [], nodes: [] }));
    expect((await screen.findByTestId('empty-state')).textContent).toBe('There are no GPUs in the cluster');
  });

  it('shows a failed request with a retry that loads the page', async () => {
    renderPage([problem(400, 'InvalidRequest', 'model: not an accelerator model of the catalogue'), json(OVERVIEW)]);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The GPUs could not be loaded');
    expect(error.textContent).toContain('not an accelerator model of the catalogue');
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByTestId('gpu-node')).toHaveLength(2);
  });
});

describe('GPU history on the GpusPage', () => {
  it('charts each model: cards as a line, allocated and used as areas, the current hour marked, a table beside', async () => {
    const sent = renderPage(json(OVERVIEW));
    const charts = await screen.findAllByTestId('gpu-history-model');
    expect(sent.find((r) => r.path === '/api/v1/cluster/gpu-history')!.query.get('hours')).toBe('48');
    expect(screen.getByRole('heading', { name: 'GPUs allocated and used, last 48 hours' })).toBeTruthy();
    expect(charts.map((c) => c.dataset.model)).toEqual(['nvidia-a100-80gb', 'nvidia-h100-80gb']);
    const a100 = within(charts[0]!);
    expect(a100.getByTestId('gpu-history-stats').textContent).toBe(
      '3 cards now · at most 2 GPUs allocated in an hour · mean 1 GPUs allocated, 0.5 GPUs used · efficiency 75 %',
    );
    // Scale 0 to 3 GPUs over 132 units of height: the cards at the top, 2 allocated in the first of three slots.
    expect(a100.getByTestId('gpu-history-total').getAttribute('y1')).toBe('0');
    expect(a100.getByTestId('gpu-history-allocated').getAttribute('d')).toBe(
      'M0,132 L0,44 L192,44 L192,132 L384,132 L384,88 L576,88 L576,132 Z',
    );
    expect(a100.getByTestId('gpu-history-partial').getAttribute('x')).toBe('384');
    expect(a100.getAllByTestId('gpu-history-tick').map((tick) => tick.textContent)).toEqual(['0 GPUs', '2 GPUs', '3 GPUs']);
    expect(a100.getByRole('img').getAttribute('aria-label')).toBe(
      'NVIDIA A100 80GB over the last 3 hours: 3 cards now, at most 2 GPUs allocated in an hour, on average 1 GPUs allocated and 0.5 GPUs used',
    );
    const rows = within(a100.getByTestId('gpu-history-table')).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(1),
    ).toEqual(['2', '1.5', '75 %']);
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(1),
    ).toEqual(['0', '0', '—']);
    expect(within(rows[3]!).getAllByRole('cell')[0]!.textContent).toContain('(so far)');
    expect(within(charts[1]!).getByTestId('gpu-history-idle').textContent).toBe('Nothing held in this span');
  });

  it('asks for another span when one is chosen', async () => {
    const sent = renderPage(json(OVERVIEW));
    await screen.findAllByTestId('gpu-history-model');
    fireEvent.click(screen.getByRole('button', { name: 'last 7 days' }));
    await screen.findByRole('heading', { name: 'GPUs allocated and used, last 7 days' });
    await waitFor(() =>
      expect(sent.filter((r) => r.path === '/api/v1/cluster/gpu-history').map((r) => r.query.get('hours'))).toEqual(['48', '168']),
    );
    expect(screen.getByRole('button', { name: 'last 7 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('says when nothing was held in the span', async () => {
    renderPage(json(OVERVIEW), '/gpus', json(IDLE));
    const section = within(await screen.findByTestId('gpu-history'));
    expect((await section.findByTestId('empty-state')).textContent).toBe('Nothing held in this span');
    expect(section.queryByTestId('gpu-history-model')).toBeNull();
  });

  it('shows a failed history with a retry, the cards still there', async () => {
    renderPage(json(OVERVIEW), '/gpus', [problem(400, 'InvalidRequest', 'hours: a whole number of hours from 1 to 720'), json(HISTORY)]);
    const section = within(await screen.findByTestId('gpu-history'));
    const error = await section.findByTestId('error-state');
    expect(error.textContent).toContain('The GPU history could not be loaded');
    expect(error.textContent).toContain('a whole number of hours from 1 to 720');
    expect(screen.getAllByTestId('gpu-node')).toHaveLength(2);
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await section.findAllByTestId('gpu-history-model')).toHaveLength(2);
  });
});
