import type { NotificationChannel, NotificationPreference, NotificationPreferenceChange } from '../../api/types';

/** A grid of choices: `kind|channel` → on. */
export type PreferenceGrid = Record<string, boolean>;

export const cellKey = (kind: string, channel: NotificationChannel) => `${kind}|${channel}`;

export function gridOf(preferences: readonly NotificationPreference[]): PreferenceGrid {
  const out: PreferenceGrid = {};
  for (const p of preferences) out[cellKey(p.kind, p.channel)] = p.enabled;
  return out;
}

/** The cells that differ between what the server holds and what the user set, as the changes of a PUT. */
export function changesBetween(saved: PreferenceGrid, edited: PreferenceGrid): NotificationPreferenceChange[] {
  return Object.keys(edited)
    .filter((k) => edited[k] !== saved[k])
    .sort()
    .map((k) => {
      const [kind, channel] = k.split('|') as [string, NotificationChannel];
      return { kind, channel, enabled: edited[k] ?? false };
    });
}

/** The minutes a user may choose for the waiting threshold: whole minutes from 1 to a week. */
export const WAITING_MIN = 1;
export const WAITING_MAX = 10080;

export function validWaiting(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= WAITING_MIN && n <= WAITING_MAX ? n : null;
}
