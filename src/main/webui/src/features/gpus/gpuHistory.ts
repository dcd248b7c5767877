import type { GpuHistoryPoint, GpuModelHistory } from '../../api/gpus';
import { trimNumber } from '../../lib/units';

/** The spans the GPUs page offers, in hours: a day, two days (the default) and a week. */
export const HISTORY_SPANS = [24, 48, 168] as const;
export type HistorySpan = (typeof HISTORY_SPANS)[number];
export const DEFAULT_SPAN: HistorySpan = 48;

/** The drawing area of one history chart, in SVG user units. */
export interface HistoryBox {
  width: number;
  height: number;
}

/** The top of the GPU scale: the larger of the cards now and the most held in an hour, rounded up, at least 1. */
export function historyTop(model: GpuModelHistory): number {
  const most = Math.max(model.total, ...model.points.map((p) => p.allocated));
  return Math.max(1, Math.ceil(most));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The height of a number of GPUs in the box: 0 at the bottom, `top` at the top (clamped). */
export function gpuY(gpus: number, top: number, box: HistoryBox): number {
  const clamped = Math.min(top, Math.max(0, gpus));
  return round(box.height - (clamped / top) * box.height);
}

/**
 * The SVG path of an area of hourly means: each hour a flat step across its slot, closed along the bottom; ''
 * when there are no hours.
 */
export function stepArea(points: readonly GpuHistoryPoint[], value: (p: GpuHistoryPoint) => number, top: number, box: HistoryBox): string {
  if (points.length === 0) return '';
  const slot = box.width / points.length;
  const parts = [`M0,${box.height}`];
  points.forEach((p, i) => {
    const y = gpuY(value(p), top, box);
    parts.push(`L${round(i * slot)},${y}`, `L${round((i + 1) * slot)},${y}`);
  });
  parts.push(`L${box.width},${box.height}`, 'Z');
  return parts.join(' ');
}

/** The span as a whole: the most held in an hour, the mean held and used, and used ÷ measured (null: none measured). */
export function historyStats(points: readonly GpuHistoryPoint[]): {
  peak: number;
  meanAllocated: number;
  meanUsed: number;
  efficiency: number | null;
  held: boolean;
} {
  const n = Math.max(1, points.length);
  const sum = (f: (p: GpuHistoryPoint) => number) => points.reduce((s, p) => s + f(p), 0);
  const measured = sum((p) => p.measured);
  return {
    peak: Math.max(0, ...points.map((p) => p.allocated)),
    meanAllocated: sum((p) => p.allocated) / n,
    meanUsed: sum((p) => p.used) / n,
    efficiency: measured > 0 ? Math.min(1, sum((p) => p.used) / measured) : null,
    held: points.some((p) => p.allocated > 0),
  };
}

/** GPUs as text, two decimals at most: 1.5 → "1.5", 0 → "0". */
export function gpusText(gpus: number): string {
  return trimNumber(gpus, 2);
}

/** An efficiency (0–1) as a percentage, whole: 0.756 → "76 %", null → "—". */
export function efficiencyText(efficiency: number | null): string {
  return efficiency === null ? '—' : `${Math.round(efficiency * 100)} %`;
}

/** Which hours get a label on the time axis: about six across the span, on whole multiples of the step. */
export function labelStep(hours: number): number {
  if (hours <= 24) return 4;
  if (hours <= 48) return 8;
  return 24;
}

/** An hour's start as local text: the time for spans of up to two days, the date and time beyond. */
export function hourText(iso: string, hours: number, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return hours <= 48
    ? at.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' })
    : at.toLocaleString(language, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
