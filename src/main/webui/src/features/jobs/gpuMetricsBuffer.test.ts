import { describe, expect, it } from 'vitest';
import type { GpuCardPoint } from '../../api/types';
import { addSamples, addWindow, EMPTY_VIEW, MAX_POINTS, memoryText, readingText } from './gpuMetricsBuffer';

function point(index: number, utilisation: number | null, extra: Partial<GpuCardPoint> = {}): GpuCardPoint {
  return {
    node: 'gpu-a',
    index,
    uuid: `GPU-${index}`,
    model: 'NVIDIA RTX 4090',
    pod: 'c-j1-main-0',
    utilisation,
    memoryUsedMiB: 100,
    memoryTotalMiB: 24564,
    powerWatts: 80,
    temperatureC: 40,
    ...extra,
  };
}

const at = (s: number) => new Date(Date.parse('2026-11-30T12:00:00Z') + s * 1000).toISOString();

describe('gpuMetricsBuffer', () => {
  it('keeps one series per card, sorted, and ignores samples not newer than the newest', () => {
    let view = addSamples(EMPTY_VIEW, [{ at: at(0), cards: [point(3, 10), point(1, 20)] }]);
    view = addSamples(view, [
      { at: at(0), cards: [point(3, 99)] },
      { at: at(5), cards: [point(3, 30), point(1, null)] },
    ]);
    expect(view.series.map((s) => s.key)).toEqual(['c-j1-main-0/1', 'c-j1-main-0/3']);
    expect(view.series[1]!.points.map((p) => p.percent)).toEqual([10, 30]);
    // A step without a utilisation reading adds no point but updates the readings.
    expect(view.series[0]!.points.map((p) => p.percent)).toEqual([20]);
    expect(view.newest).toBe(Date.parse(at(5)));
  });

  it('names a card from history by its later live reading and keeps at most MAX_POINTS points', () => {
    const history = Array.from({ length: MAX_POINTS + 5 }, (_, i) => ({
      at: at(i),
      cards: [point(0, i, { node: null, uuid: null, model: null })],
    }));
    const view = addWindow(EMPTY_VIEW, {
      job: 'j1',
      stepSeconds: 1,
      samples: [...history, { at: at(MAX_POINTS + 5), cards: [point(0, 1)] }],
      unavailable: 'slow',
    });
    const series = view.series[0]!;
    expect(series.points).toHaveLength(MAX_POINTS);
    expect(series.points[0]!.percent).toBe(6);
    expect(series.latest.node).toBe('gpu-a');
    expect(view.stepSeconds).toBe(1);
    expect(view.unavailable).toBe('slow');
    // Identity a newer history point lacks is kept from the older one.
    const later = addSamples(view, [{ at: at(MAX_POINTS + 6), cards: [point(0, 2, { node: null })] }]);
    expect(later.series[0]!.latest.node).toBe('gpu-a');
  });

  it.each([
    [40960, 81920, '40 / 80 GiB'],
    [512, 768, '512 / 768 MiB'],
    [100, null, '100 MiB'],
    [null, 24564, '—'],
  ])('memory %s of %s MiB reads %s', (used, total, text) => {
    expect(memoryText(used, total)).toBe(text);
  });

  it.each([
    [251.26, 'W', '251.3 W'],
    [61, '°C', '61 °C'],
    [null, 'W', '—'],
  ])('reading %s %s reads %s', (value, unit, text) => {
    expect(readingText(value, unit)).toBe(text);
  });
});
