import { trimNumber } from '../../lib/units';

/** Memory used of total with one explicit unit: GiB when the card has at least 1 GiB, else MiB. */
export function memoryText(usedMiB: number | null, totalMiB: number | null): string | null {
  if (usedMiB === null) return null;
  const gib = (totalMiB ?? usedMiB) >= 1024;
  const show = (mib: number) => (gib ? trimNumber(mib / 1024, 1) : trimNumber(mib, 0));
  const unit = gib ? 'GiB' : 'MiB';
  return totalMiB === null ? `${show(usedMiB)} ${unit}` : `${show(usedMiB)} / ${show(totalMiB)} ${unit}`;
}

/** A percentage rounded to a whole number, clamped to 0–100 for bars. */
export function percentWidth(value: number | null): number {
  if (value === null || !Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(100, value));
}

/** The filter from the page's query string; anything unreadable is left out (the server checks the rest). */
export function filterFromSearch(search: URLSearchParams): { minFree: number | null; model: string | null } {
  const raw = search.get('minFree');
  const minFree = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  const model = search.get('model');
  return { minFree, model: model === null || model === '' ? null : model };
}
