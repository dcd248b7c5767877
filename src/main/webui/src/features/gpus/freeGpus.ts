import type { AccountRoom, FreeModel } from '../../api/types';
import { trimNumber } from '../../lib/units';

/**
 * A model's cards in three parts that add up to its total: `free` (on nodes that take pods, after the room of
 * admitted jobs not bound yet), `taken` (held by pods or reserved on those nodes) and `offline` (on nodes that take
 * no pods: not ready or cordoned).
 */
export interface FreeSplit {
  free: number;
  taken: number;
  offline: number;
  total: number;
}

export function freeSplit(model: Pick<FreeModel, 'total' | 'free' | 'nodes'>): FreeSplit {
  const offline = model.nodes.filter((n) => !n.schedulable).reduce((sum, n) => sum + n.total, 0);
  const free = Math.max(0, Math.min(model.free, model.total));
  const taken = Math.max(0, model.total - free - offline);
  return { free, taken, offline: Math.max(0, model.total - free - taken), total: model.total };
}

/** Share of `part` on a scale whose full length is `scale` cards, as a CSS percentage ("37.5%"). */
export function shareWidth(part: number, scale: number): string {
  if (!(scale > 0) || !(part > 0)) return '0%';
  return `${trimNumber(Math.min(1, part / scale) * 100, 2)}%`;
}

/** The chart's scale: the largest model's cards, so the bars compare across models (1 when there are none). */
export function chartScale(models: readonly Pick<FreeModel, 'total'>[]): number {
  return Math.max(1, ...models.map((m) => m.total));
}

/** Ticks along the chart's axis: 0, the middle (when it is a whole number of cards past 1) and the scale. */
export function chartTicks(scale: number): number[] {
  const middle = scale / 2;
  return scale >= 2 && Number.isInteger(middle) ? [0, middle, scale] : [0, scale];
}

/** One card's memory with an explicit unit: "80 GiB" from 81920 MiB, "512 MiB" below 1 GiB; null when unknown. */
export function cardMemoryText(mib: number | null): string | null {
  if (mib === null || !Number.isFinite(mib) || mib <= 0) return null;
  return mib >= 1024 ? `${trimNumber(mib / 1024, 1)} GiB` : `${trimNumber(mib, 0)} MiB`;
}

/** The display name of a model key, from the models the answer lists; the key itself when it lists none. */
export function modelNames(models: readonly Pick<FreeModel, 'model' | 'displayName'>[]): (key: string) => string {
  const names = new Map(models.map((m) => [m.model, m.displayName]));
  return (key) => names.get(key) ?? key;
}

/** An account's models with room or use first (most it may still use first), then those it has no quota for. */
export function sortedRoom(account: AccountRoom): AccountRoom['models'] {
  return account.models.slice().sort((a, b) => b.mayStillUse - a.mayStillUse || b.used - a.used || a.model.localeCompare(b.model));
}
