import type { UsageWait } from '../../api/types';

/** A group's waits with the widths of its bar: the mean and the 90th percentile against the longest p90 shown. */
export interface WaitBar extends UsageWait {
  /** Percent of the bar's track, 0–100. */
  meanWidth: number;
  p90Width: number;
}

/**
 * The groups that had jobs admitted, longest 90th-percentile wait first (ties by name), each with bar widths
 * relative to the longest p90, so the group that waits longest fills the track.
 */
export function waitBars(waits: readonly UsageWait[]): WaitBar[] {
  const shown = waits.filter((w) => w.jobs > 0);
  const longest = Math.max(0, ...shown.map((w) => w.p90Seconds));
  return [...shown]
    .sort((a, b) => b.p90Seconds - a.p90Seconds || a.key.localeCompare(b.key))
    .map((w) => ({
      ...w,
      meanWidth: longest > 0 ? Math.min(100, (w.meanSeconds / longest) * 100) : 0,
      p90Width: longest > 0 ? (w.p90Seconds / longest) * 100 : 0,
    }));
}
