import type { GpuCardPoint, GpuMetricSample, GpuMetricWindow } from '../../api/types';

/** Points a card's chart keeps at most (the oldest go first). */
export const MAX_POINTS = 240;

/** One card's utilisation over time and its latest reading. */
export interface CardSeries {
  /** `pod/index`: stable across samples. */
  key: string;
  pod: string;
  index: number | null;
  points: { at: string; percent: number }[];
  /** The newest point's full reading (identity and readings, nulls where the source has none). */
  latest: GpuCardPoint;
}

/** What the chart draws: series by card, the newest sample's time and the step. */
export interface GpuMetricsView {
  series: CardSeries[];
  /** The newest sample's time in epoch ms; null before the first. */
  newest: number | null;
  stepSeconds: number | null;
  unavailable: string | null;
}

export const EMPTY_VIEW: GpuMetricsView = { series: [], newest: null, stepSeconds: null, unavailable: null };

function cardKey(c: GpuCardPoint): string {
  return `${c.pod}/${c.index ?? '?'}`;
}

/** A card's newest reading, keeping what an older one named when the newer one does not (history has no node). */
function merged(old: GpuCardPoint | undefined, next: GpuCardPoint): GpuCardPoint {
  if (old === undefined) return next;
  return { ...next, node: next.node ?? old.node, uuid: next.uuid ?? old.uuid, model: next.model ?? old.model };
}

/**
 * Adds samples to the view: a sample not newer than the newest shown is ignored (a reconnect's window may repeat
 * what was shown), each card keeps its last MAX_POINTS utilisation points, series sorted by pod then index.
 */
export function addSamples(view: GpuMetricsView, samples: readonly GpuMetricSample[]): GpuMetricsView {
  let newest = view.newest;
  const byKey = new Map(view.series.map((s) => [s.key, { ...s, points: [...s.points] }]));
  for (const sample of samples) {
    const at = Date.parse(sample.at);
    if (!Number.isFinite(at) || (newest !== null && at <= newest)) continue;
    newest = at;
    for (const card of sample.cards) {
      const key = cardKey(card);
      const series = byKey.get(key) ?? { key, pod: card.pod, index: card.index, points: [], latest: card };
      if (card.utilisation !== null && Number.isFinite(card.utilisation)) {
        series.points.push({ at: sample.at, percent: card.utilisation });
        if (series.points.length > MAX_POINTS) series.points.splice(0, series.points.length - MAX_POINTS);
      }
      series.latest = merged(byKey.get(key)?.latest, card);
      byKey.set(key, series);
    }
  }
  const series = [...byKey.values()].sort((a, b) => a.pod.localeCompare(b.pod) || (a.index ?? -1) - (b.index ?? -1));
  return { ...view, series, newest };
}

/** The first event of a connection: its samples after what is shown, its step and why reads fail (if they do). */
export function addWindow(view: GpuMetricsView, window: GpuMetricWindow): GpuMetricsView {
  return { ...addSamples(view, window.samples), stepSeconds: window.stepSeconds, unavailable: window.unavailable };
}

/** Memory used of total in GiB (MiB for a card under 1 GiB), with its unit; '—' when unknown. */
export function memoryText(usedMiB: number | null, totalMiB: number | null): string {
  if (usedMiB === null) return '—';
  const inGiB = (totalMiB ?? usedMiB) >= 1024;
  const show = (mib: number) => (inGiB ? `${Math.round((mib / 1024) * 10) / 10}` : `${Math.round(mib)}`);
  const unit = inGiB ? 'GiB' : 'MiB';
  return totalMiB === null ? `${show(usedMiB)} ${unit}` : `${show(usedMiB)} / ${show(totalMiB)} ${unit}`;
}

/** A reading with its unit and at most one decimal ('—' when unknown): (251.26, 'W') → "251.3 W". */
export function readingText(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return '—';
  return `${Math.round(value * 10) / 10} ${unit}`;
}
