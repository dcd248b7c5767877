/** Formatting of resource quantities for display. All functions are pure and locale-neutral. */

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;
const TIB = GIB * 1024;

/** Rounds to at most `digits` decimals and drops trailing zeros: 1.50 → "1.5", 2.00 → "2". */
export function trimNumber(value: number, digits: number): string {
  if (!Number.isFinite(value)) return '—';
  const fixed = value.toFixed(digits);
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** CPU milli-cores → cores: 64000 → "64", 500 → "0.5", 1250 → "1.25". */
export function formatCores(milli: number): string {
  return trimNumber(milli / 1000, 2);
}

/** Allocated / total CPU in cores: (4000, 64000) → "4 / 64". */
export function formatCoresPair(allocatedMilli: number, totalMilli: number): string {
  return `${formatCores(allocatedMilli)} / ${formatCores(totalMilli)}`;
}

/** Bytes → GiB with at most one decimal: 17179869184 → "16". */
export function formatGiB(bytes: number): string {
  return trimNumber(bytes / GIB, 1);
}

/** Allocated / total memory in GiB: (16 GiB, 512 GiB) → "16 / 512". */
export function formatGiBPair(allocatedBytes: number, totalBytes: number): string {
  return `${formatGiB(allocatedBytes)} / ${formatGiB(totalBytes)}`;
}

/** Bytes with a binary unit chosen by size: "512 B", "1.5 KiB", "256 MiB", "16 GiB", "2 TiB". */
export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= TIB) return `${trimNumber(bytes / TIB, 1)} TiB`;
  if (abs >= GIB) return `${trimNumber(bytes / GIB, 1)} GiB`;
  if (abs >= MIB) return `${trimNumber(bytes / MIB, 1)} MiB`;
  if (abs >= KIB) return `${trimNumber(bytes / KIB, 1)} KiB`;
  return `${trimNumber(bytes, 0)} B`;
}

/** GPU (or other accelerator) count: whole devices, never negative. */
export function formatGpuCount(count: number): string {
  if (!Number.isFinite(count) || count < 0) return '0';
  return String(Math.round(count));
}

/** Allocated / total devices: (2, 8) → "2 / 8". */
export function formatGpuPair(allocated: number, total: number): string {
  return `${formatGpuCount(allocated)} / ${formatGpuCount(total)}`;
}

/** Share of `used` in `total` as a number in [0, 1]; 0 when total is 0. */
export function ratio(used: number, total: number): number {
  if (!(total > 0) || !Number.isFinite(used)) return 0;
  return Math.min(1, Math.max(0, used / total));
}

/** Share as a whole percentage string: (2, 8) → "25%". */
export function formatPercent(used: number, total: number): string {
  return `${Math.round(ratio(used, total) * 100)}%`;
}

/**
 * Duration in seconds → compact text with the two largest units:
 * 45 → "45s", 303 → "5m 3s", 7500 → "2h 5m", 273600 → "3d 4h".
 */
export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds <= 0) return '0s';
  const s = Math.round(totalSeconds);
  const units: [string, number][] = [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [label, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n}${label}`);
    if (parts.length === 2) break;
  }
  // Drop a trailing zero part: "5m 0s" → "5m".
  if (parts.length === 2 && parts[1]?.startsWith('0')) parts.pop();
  return parts.join(' ');
}

// ---- Quota resources ----

/** What a quota resource key measures: "cpu" (cores), "memory" (bytes) or an accelerator model (devices). */
export type ResourceKind = 'cpu' | 'memory' | 'accelerator';

export function resourceKind(resource: string): ResourceKind {
  if (resource === 'cpu') return 'cpu';
  if (resource === 'memory') return 'memory';
  return 'accelerator';
}

/**
 * A milli-unit amount as a plain number in the resource's display unit:
 * accelerators as counts (8000 → "8", 500 → "0.5"), cpu as cores (500 → "0.5"), memory as GiB.
 */
export function formatResourceMilli(resource: string, milli: number): string {
  if (!Number.isFinite(milli)) return '—';
  switch (resourceKind(resource)) {
    case 'cpu':
      return formatCores(milli);
    case 'memory':
      return formatGiB(milli / 1000);
    case 'accelerator':
      return trimNumber(milli / 1000, 2);
  }
}

const SUFFIX_FACTORS: Record<string, number> = {
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * Parses a Kubernetes quantity ("8", "500m", "64Gi", "1.5", "2e3") into milli-units,
 * or returns null when it is not a valid non-negative quantity.
 */
export function parseQuantityMilli(text: string): number | null {
  const m = /^\+?(\d+(?:\.\d+)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/.exec(text.trim());
  if (m === null) return null;
  const value = Number(m[1]);
  const factor = m[3] !== undefined ? 10 ** Number(m[3]) : SUFFIX_FACTORS[m[2] ?? ''];
  if (factor === undefined) return null;
  const milli = Math.round(value * factor * 1000);
  return Number.isFinite(milli) ? milli : null;
}

/** Whether `text` is a quantity the server will accept for the resource (accelerators: whole devices). */
export function isValidAmount(resource: string, text: string): boolean {
  const milli = parseQuantityMilli(text);
  if (milli === null) return false;
  if (resourceKind(resource) === 'accelerator') return milli % 1000 === 0;
  return true;
}
