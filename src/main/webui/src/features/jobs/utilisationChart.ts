import type { UtilisationSample, UtilisationSeries } from '../../api/types';
import { trimNumber } from '../../lib/units';

/** The drawing area of one chart, in SVG user units. */
export interface ChartBox {
  width: number;
  height: number;
}

/** A utilisation in percent as text, one decimal at most: 12.34 → "12.3 %", 0 → "0 %". */
export function percentText(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return '—';
  return `${trimNumber(percent, 1)} %`;
}

/** The height of a percentage in the box: 0 % at the bottom, 100 % at the top (clamped to 0–100). */
export function percentY(percent: number, box: ChartBox): number {
  const clamped = Math.min(100, Math.max(0, percent));
  return round(box.height - (clamped / 100) * box.height);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * The SVG polyline points of samples between `from` and `to` (ISO instants): time left to right, 0–100 % bottom
 * to top. Samples outside the range or with an unreadable time are left out; '' when none is left.
 */
export function chartPoints(samples: readonly UtilisationSample[], from: string, to: string, box: ChartBox): string {
  const start = Date.parse(from);
  const end = Date.parse(to);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return '';
  const span = end - start;
  const points: string[] = [];
  for (const s of samples) {
    const at = Date.parse(s.at);
    if (!Number.isFinite(at) || at < start || at > end || !Number.isFinite(s.percent)) continue;
    points.push(`${round(((at - start) / span) * box.width)},${percentY(s.percent, box)}`);
  }
  return points.join(' ');
}

/**
 * Where the chart's time axis starts: the start of the range asked for, or the job's start when that is later
 * (a job younger than the window would otherwise be a dot at the right edge).
 */
export function chartStart(from: string, startedAt: string | null): string {
  if (startedAt === null) return from;
  const started = Date.parse(startedAt);
  const start = Date.parse(from);
  return Number.isFinite(started) && Number.isFinite(start) && started > start ? startedAt : from;
}

/** The latest, highest and mean utilisation of a series (nulls when it has no samples). */
export function seriesStats(samples: readonly UtilisationSample[]): {
  latest: number | null;
  peak: number | null;
  mean: number | null;
} {
  const values = samples.map((s) => s.percent).filter((p) => Number.isFinite(p));
  if (values.length === 0) return { latest: null, peak: null, mean: null };
  return {
    latest: values[values.length - 1] ?? null,
    peak: Math.max(...values),
    mean: values.reduce((a, b) => a + b, 0) / values.length,
  };
}

/** Series in a stable order: by pod, then by accelerator (numerically: 2 before 10). */
export function sortSeries(series: readonly UtilisationSeries[]): UtilisationSeries[] {
  return [...series].sort((a, b) => a.pod.localeCompare(b.pod) || a.accelerator.localeCompare(b.accelerator, undefined, { numeric: true }));
}

/** Whether a job's requests include accelerators (any resource besides cpu and memory, more than zero). */
export function holdsAccelerators(requests: Record<string, string>): boolean {
  return Object.entries(requests).some(([resource, amount]) => resource !== 'cpu' && resource !== 'memory' && amount.trim() !== '0');
}
