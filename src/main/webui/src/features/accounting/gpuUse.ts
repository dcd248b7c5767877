import type { UsageRow } from '../../api/types';

/** What one accelerator model's jobs held and used over a report, in device-hours. */
export interface ModelUse {
  resource: string;
  held: number;
  measured: number;
  used: number;
  unknown: number;
  /** used ÷ measured, 0–1; null when nothing was measured. */
  efficiency: number | null;
  idleCostMicros: number;
  costMicros: number;
}

/** Device-hours to a thousandth, so sums of rounded rows do not show float noise. */
function hours(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The accelerator rows of a report (any grouping) summed per model, largest holding first. CPU and memory rows
 * (whose measured figures are null) are left out.
 */
export function modelUse(rows: readonly UsageRow[]): ModelUse[] {
  const byModel = new Map<string, ModelUse>();
  for (const r of rows) {
    if (r.measured === null || r.used === null) continue;
    const m = byModel.get(r.resource) ?? {
      resource: r.resource,
      held: 0,
      measured: 0,
      used: 0,
      unknown: 0,
      efficiency: null,
      idleCostMicros: 0,
      costMicros: 0,
    };
    m.held = hours(m.held + r.held);
    m.measured = hours(m.measured + r.measured);
    m.used = hours(m.used + r.used);
    m.unknown = hours(m.unknown + (r.unknown ?? 0));
    m.idleCostMicros += r.idleCostMicros ?? 0;
    m.costMicros += r.costMicros;
    byModel.set(r.resource, m);
  }
  const out = [...byModel.values()];
  for (const m of out) m.efficiency = m.measured > 0 ? Math.min(1, m.used / m.measured) : null;
  return out.sort((a, b) => b.held - a.held || a.resource.localeCompare(b.resource));
}

/** The shares of a model's held time that were used, measured idle and unknown, in percent adding up to 100. */
export function shares(m: ModelUse): { used: number; idle: number; unknown: number } {
  if (m.held <= 0) return { used: 0, idle: 0, unknown: 0 };
  const used = Math.max(0, Math.min(100, (m.used / m.held) * 100));
  const idle = Math.max(0, Math.min(100 - used, ((m.measured - m.used) / m.held) * 100));
  return { used, idle, unknown: Math.max(0, 100 - used - idle) };
}
