import { describe, expect, it } from 'vitest';
import type { GpuHistoryPoint, GpuModelHistory } from '../../api/gpus';
import { efficiencyText, gpuY, gpusText, historyStats, historyTop, labelStep, stepArea } from './gpuHistory';

const point = (hour: string, allocated: number, measured = 0, used = 0, partial = false): GpuHistoryPoint => ({
  hour,
  allocated,
  measured,
  used,
  efficiency: measured > 0 ? used / measured : null,
  partial,
});

const model = (total: number, points: GpuHistoryPoint[]): GpuModelHistory => ({
  model: 'nvidia-a100',
  displayName: 'NVIDIA A100',
  total,
  points,
});

describe('gpu history shaping', () => {
  it('scales to the cards now, or to more when more were held, never below one GPU', () => {
    expect(historyTop(model(8, [point('2026-12-01T08:00:00Z', 3)]))).toBe(8);
    expect(historyTop(model(4, [point('2026-12-01T08:00:00Z', 5.2)]))).toBe(6);
    expect(historyTop(model(0, [point('2026-12-01T08:00:00Z', 0)]))).toBe(1);
  });

  it('places GPUs from the bottom to the top of the box, clamped', () => {
    const box = { width: 100, height: 50 };
    expect(gpuY(0, 4, box)).toBe(50);
    expect(gpuY(4, 4, box)).toBe(0);
    expect(gpuY(1, 4, box)).toBe(37.5);
    expect(gpuY(9, 4, box)).toBe(0);
    expect(gpuY(-1, 4, box)).toBe(50);
  });

  it('draws each hour as a flat step across its slot, closed along the bottom', () => {
    const points = [point('2026-12-01T08:00:00Z', 2), point('2026-12-01T09:00:00Z', 4)];
    expect(stepArea(points, (p) => p.allocated, 4, { width: 100, height: 40 })).toBe('M0,40 L0,20 L50,20 L50,0 L100,0 L100,40 Z');
    expect(stepArea([], (p) => p.allocated, 4, { width: 100, height: 40 })).toBe('');
  });

  it('sums the span: peak, means over every hour, and efficiency from the measured part only', () => {
    const stats = historyStats([
      point('2026-12-01T08:00:00Z', 4, 4, 3),
      point('2026-12-01T09:00:00Z', 2, 0, 0),
      point('2026-12-01T10:00:00Z', 0),
      point('2026-12-01T11:00:00Z', 2, 2, 0, true),
    ]);
    expect(stats).toEqual({ peak: 4, meanAllocated: 2, meanUsed: 0.75, efficiency: 0.5, held: true });
  });

  it('has no efficiency when nothing was measured, and knows an idle span', () => {
    const stats = historyStats([point('2026-12-01T08:00:00Z', 0), point('2026-12-01T09:00:00Z', 0)]);
    expect(stats.efficiency).toBeNull();
    expect(stats.held).toBe(false);
  });

  it('writes GPUs and percentages with their units', () => {
    expect(gpusText(1.5)).toBe('1.5');
    expect(gpusText(0.333)).toBe('0.33');
    expect(gpusText(0)).toBe('0');
    expect(efficiencyText(0.756)).toBe('76 %');
    expect(efficiencyText(null)).toBe('—');
  });

  it('labels about six hours across each span', () => {
    expect([24, 48, 168].map(labelStep)).toEqual([4, 8, 24]);
  });
});
