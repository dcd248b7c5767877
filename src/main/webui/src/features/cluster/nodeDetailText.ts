import type { NodeCondition, NodeTaint } from '../../api/types';
import type { BadgeTone } from '../../components/common/StatusBadge';
import { formatDuration } from '../../lib/units';

/** How long ago an instant was ("3d 4h"); "—" when it is unknown or unreadable. */
export function ageText(iso: string | null, now: number): string {
  if (iso === null) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  return formatDuration(Math.max(0, now - at) / 1000);
}

/**
 * Badge colour of a node condition: `Ready` is good when True; the pressure conditions (`MemoryPressure`,
 * `DiskPressure`, `PIDPressure`, `NetworkUnavailable`, ...) are good when False; Unknown is never good.
 */
export function conditionTone(condition: Pick<NodeCondition, 'type' | 'status'>): BadgeTone {
  if (condition.status === 'Unknown') return 'warning';
  const healthy = condition.type === 'Ready' ? 'True' : 'False';
  if (condition.status === healthy) return 'success';
  return condition.type === 'Ready' ? 'danger' : 'warning';
}

/** Badge colour of a Kubernetes event type: warnings stand out. */
export function eventTone(type: string | null): BadgeTone {
  return type === 'Warning' ? 'warning' : 'neutral';
}

/** A taint as kubectl writes it: `key=value:Effect`, or `key:Effect` without a value. */
export function taintText(taint: NodeTaint): string {
  return `${taint.key}${taint.value !== '' ? `=${taint.value}` : ''}:${taint.effect}`;
}

/** The labels by key, as `key=value`. */
export function labelLines(labels: Record<string, string>): string[] {
  return Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
}
