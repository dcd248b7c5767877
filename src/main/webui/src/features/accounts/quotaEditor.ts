import type { ClusterNode, QuotaItem, QuotaLine } from '../../api/types';
import { trimNumber } from '../../lib/units';
import { parseQuotaAmount, quotaRowsFrom } from './quotaRows';

const GiB = 1024 ** 3;

/** CPU and memory the fleet's nodes carry per device of one accelerator model. */
export interface FleetRatio {
  model: string;
  devices: number;
  cpuMilliPerDevice: number;
  memoryBytesPerDevice: number;
}

/**
 * Per accelerator model: the CPU and memory of the nodes that carry it, divided by their devices (a node of
 * 128 cores, 1 TiB and 8 GPUs gives 16 cores and 128 GiB per GPU). Nodes without devices count for no model.
 */
export function fleetRatios(nodes: readonly ClusterNode[]): Map<string, FleetRatio> {
  const sums = new Map<string, { devices: number; cpu: number; memory: number }>();
  for (const node of nodes) {
    const acc = node.accelerator;
    if (!acc || acc.total <= 0) continue;
    const s = sums.get(acc.model) ?? { devices: 0, cpu: 0, memory: 0 };
    s.devices += acc.total;
    s.cpu += node.cpu.totalMilli;
    s.memory += node.memory.totalBytes;
    sums.set(acc.model, s);
  }
  const ratios = new Map<string, FleetRatio>();
  for (const [model, s] of sums) {
    ratios.set(model, {
      model,
      devices: s.devices,
      cpuMilliPerDevice: Math.floor(s.cpu / s.devices),
      memoryBytesPerDevice: Math.floor(s.memory / s.devices),
    });
  }
  return ratios;
}

/**
 * Every resource that can carry quota, one row each, in a fixed order: cpu, memory, each catalogued model, then
 * any resource the account has a line for that the catalogue no longer lists. Absent lines start at 0.
 */
export function editorRows(quota: readonly QuotaLine[], modelKeys: readonly string[]): QuotaItem[] {
  const existing = new Map(quotaRowsFrom(quota).map((r) => [r.resource, r]));
  const keys = ['cpu', 'memory', ...modelKeys];
  for (const l of quota) if (!keys.includes(l.resource)) keys.push(l.resource);
  return keys.map((k) => existing.get(k) ?? { resource: k, guaranteed: '0', max: '0' });
}

/** Amount of a row's field in its base unit (milli-cores, bytes, devices); null when it does not parse. */
function amount(row: QuotaItem, field: 'guaranteed' | 'max'): number | null {
  const p = parseQuotaAmount(row.resource, row[field]);
  return p.ok ? p.value : null;
}

/** The rows worth sending: a row whose guaranteed and max are both 0 says what an absent row says. */
export function nonZeroRows(rows: readonly QuotaItem[]): QuotaItem[] {
  return rows.filter((r) => amount(r, 'guaranteed') !== 0 || amount(r, 'max') !== 0);
}

export type Companion = 'cpu' | 'memory';

/** A suggested guaranteed and max, as field text (cores; GiB). */
export interface Suggested {
  guaranteed: string;
  max: string;
}

/**
 * What makes an accelerator quota useless: the models given a max while cpu or memory has none (every job asks
 * for cpu and memory, so it would wait forever), and the fleet's ratio for the missing ones, summed over those
 * models (null when a model has no nodes to take a ratio from).
 */
export interface CompanionWarning {
  models: string[];
  missing: Companion[];
  suggestion: Partial<Record<Companion, Suggested>> | null;
}

export function companionWarning(rows: readonly QuotaItem[], ratios: ReadonlyMap<string, FleetRatio>): CompanionWarning | null {
  const accelerators = rows.filter((r) => r.resource !== 'cpu' && r.resource !== 'memory' && (amount(r, 'max') ?? 0) > 0);
  if (accelerators.length === 0) return null;
  const missing = (['cpu', 'memory'] as const).filter((c) => {
    const row = rows.find((r) => r.resource === c);
    return row === undefined || amount(row, 'max') === 0;
  });
  if (missing.length === 0) return null;
  const models = accelerators.map((r) => r.resource);
  const known = models.every((m) => ratios.has(m));
  let suggestion: CompanionWarning['suggestion'] = null;
  if (known) {
    suggestion = {};
    for (const c of missing) {
      const total = (field: 'guaranteed' | 'max') =>
        accelerators.reduce((sum, r) => {
          const ratio = ratios.get(r.resource)!;
          const per = c === 'cpu' ? ratio.cpuMilliPerDevice : ratio.memoryBytesPerDevice;
          return sum + (amount(r, field) ?? 0) * per;
        }, 0);
      const text = (v: number) => (c === 'cpu' ? trimNumber(Math.floor(v / 1000), 0) : trimNumber(Math.floor(v / GiB), 0));
      suggestion[c] = { guaranteed: text(total('guaranteed')), max: text(total('max')) };
    }
  }
  return { models, missing, suggestion };
}

/** The rows with the suggested cpu and memory amounts written in. */
export function applySuggestion(rows: readonly QuotaItem[], suggestion: Partial<Record<Companion, Suggested>>): QuotaItem[] {
  return rows.map((r) => {
    const s = suggestion[r.resource as Companion];
    return s ? { ...r, guaranteed: s.guaranteed, max: s.max } : r;
  });
}

/**
 * Why no job can start in an account with these quota lines: cpu or memory without any max (grants included).
 * Empty when jobs can start as far as the quota goes.
 */
export function startBlockers(lines: readonly QuotaLine[]): Companion[] {
  return (['cpu', 'memory'] as const).filter((c) => {
    const line = lines.find((l) => l.resource === c);
    return line === undefined || line.maxMilli + line.grantedMilli <= 0;
  });
}
