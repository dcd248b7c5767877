import { describe, expect, it } from 'vitest';
import type { UsageRow } from '../../api/types';
import { modelUse, shares } from './gpuUse';

function row(key: string, resource: string, held: number, measured: number | null, used: number | null): UsageRow {
  return {
    key,
    resource,
    unit: resource === 'cpu' ? 'core-hours' : 'device-hours',
    held,
    cost: '0',
    costMicros: Math.round(held * 1_000_000),
    measured,
    used,
    unknown: measured === null ? null : held - measured,
    efficiency: measured ? (used ?? 0) / measured : null,
    idleCost: measured === null ? null : '0',
    idleCostMicros: measured === null ? null : Math.round((measured - (used ?? 0)) * 1_000_000),
  };
}

describe('GPU use per model', () => {
  it('sums each model over the days, leaves out CPU and memory, and orders by what was held', () => {
    const out = modelUse([
      row('2026-11-02', 'nvidia-a100', 2, 1.8, 1.08),
      row('2026-11-02', 'cpu', 40, null, null),
      row('2026-11-03', 'nvidia-a100', 4, 4, 2),
      row('2026-11-03', 'nvidia-rtx-4090', 10, 0, 0),
    ]);
    expect(out.map((m) => m.resource)).toEqual(['nvidia-rtx-4090', 'nvidia-a100']);
    const a100 = out[1]!;
    expect(a100).toMatchObject({ held: 6, measured: 5.8, used: 3.08, unknown: 0.2, costMicros: 6_000_000 });
    expect(a100.efficiency).toBeCloseTo(3.08 / 5.8, 6);
    expect(a100.idleCostMicros).toBe(720_000 + 2_000_000);
    expect(out[0]!.efficiency).toBeNull();
  });

  it('splits what was held into used, measured idle and unknown shares that add up to 100 %', () => {
    const [a100] = modelUse([row('2026-11-02', 'nvidia-a100', 2, 1.8, 1.08)]);
    const s = shares(a100!);
    expect(s.used).toBeCloseTo(54, 6);
    expect(s.idle).toBeCloseTo(36, 6);
    expect(s.unknown).toBeCloseTo(10, 6);
    expect(shares({ ...a100!, held: 0 })).toEqual({ used: 0, idle: 0, unknown: 0 });
  });
});
