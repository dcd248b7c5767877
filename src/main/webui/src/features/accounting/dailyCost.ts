import type { UsageRow } from '../../api/types';

/** One day of a month and what it cost (all resources together), in micro-units. */
export interface DayCost {
  /** YYYY-MM-DD. */
  day: string;
  /** Day of the month, 1–31. */
  date: number;
  costMicros: number;
}

/** The number of days of a month given as "YYYY-MM". */
function daysIn(month: string): number {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, m ?? 1, 0)).getUTCDate();
}

/**
 * Every day of the month of a usage report grouped `by=day`, with each day's cost summed over its resources.
 * The month is the one the day keys name (the platform's time zone made them); no rows, no days.
 */
export function monthDays(rows: readonly UsageRow[]): DayCost[] {
  const first = rows.find((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.key));
  if (first === undefined) return [];
  const month = first.key.slice(0, 7);
  const costs = new Map<string, number>();
  for (const r of rows) if (r.key.startsWith(month)) costs.set(r.key, (costs.get(r.key) ?? 0) + r.costMicros);
  const out: DayCost[] = [];
  for (let d = 1; d <= daysIn(month); d++) {
    const day = `${month}-${String(d).padStart(2, '0')}`;
    out.push({ day, date: d, costMicros: costs.get(day) ?? 0 });
  }
  return out;
}

/**
 * The top of the chart's scale: the smallest 1, 2 or 5 × 10^n micro-units at or above the highest day, so the axis
 * reads in round numbers (3.2 → 5, 12 → 20). At least one micro-unit.
 */
export function scaleTop(maxMicros: number): number {
  if (maxMicros <= 1) return 1;
  let step = 1;
  while (step * 10 < maxMicros) step *= 10;
  for (const f of [1, 2, 5, 10]) if (f * step >= maxMicros) return f * step;
  return 10 * step;
}
