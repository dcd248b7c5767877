import type { TrashEntry } from '../../api/types';

const DAY_MS = 86_400_000;

/** How many days the trash keeps an entry, read from what it holds (expiresAt − deletedAt); null when it is empty. */
export function trashDays(trash: TrashEntry[] | undefined): number | null {
  const first = trash?.[0];
  if (!first) return null;
  const days = Math.round((Date.parse(first.expiresAt) - Date.parse(first.deletedAt)) / DAY_MS);
  return Number.isFinite(days) && days > 0 ? days : null;
}
