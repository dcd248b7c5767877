import { describe, expect, it } from 'vitest';
import type { UsageRow } from '../../api/types';
import { monthDays, scaleTop } from './dailyCost';

const row = (key: string, resource: string, costMicros: number): UsageRow => ({
  key,
  resource,
  unit: 'device-hours',
  held: 1,
  cost: String(costMicros / 1e6),
  costMicros,
  measured: null,
  used: null,
  unknown: null,
  efficiency: null,
  idleCost: null,
  idleCostMicros: null,
});

describe('monthDays', () => {
  it('gives every day of the month, summing each day over its resources', () => {
    const days = monthDays([
      row('2026-11-02', 'cpu', 120_000),
      row('2026-11-02', 'nvidia-a100-80gb', 7_500_000),
      row('2026-11-05', 'memory', 60_000),
    ]);
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '2026-11-01', date: 1, costMicros: 0 });
    expect(days[1]).toEqual({ day: '2026-11-02', date: 2, costMicros: 7_620_000 });
    expect(days[4]?.costMicros).toBe(60_000);
    expect(days[29]?.day).toBe('2026-11-30');
  });

  it('knows the length of each month, leap years included', () => {
    expect(monthDays([row('2028-02-10', 'cpu', 1)])).toHaveLength(29);
    expect(monthDays([row('2027-02-10', 'cpu', 1)])).toHaveLength(28);
    expect(monthDays([row('2026-12-31', 'cpu', 1)])).toHaveLength(31);
  });

  it('has no days without rows', () => {
    expect(monthDays([])).toEqual([]);
  });
});

describe('scaleTop', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3_200_000, 5_000_000],
    [5_000_000, 5_000_000],
    [12_000_000, 20_000_000],
    [7_620_000, 10_000_000],
    [150, 200],
  ])('%d micro-units → a scale up to %d', (max, top) => {
    expect(scaleTop(max)).toBe(top);
  });
});
