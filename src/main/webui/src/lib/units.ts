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

/** Bytes → MiB with at most one decimal: 3202349 → "3.1". */
export function formatMiB(bytes: number): string {
  return trimNumber(bytes / MIB, 1);
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

// ---- Parsing what a person types, in the unit the field states ----

/** Why an input was not understood: an i18n key under "units." and the values it names. */
export interface UnitProblem {
  key: string;
  values?: Record<string, string | number>;
}

/**
 * An input understood: `value` in the field's base unit (milli-units for cpu and accelerators, bytes for memory,
 * seconds for durations, micro-units for money), `api` the text the server takes for it, `shown` what to put
 * beside the input ("64 GiB").
 */
export type Parsed = { ok: true; value: number; api: string; shown: string } | { ok: false; problem: UnitProblem };

const FULL_WIDTH = /[\uFF10-\uFF19\uFF0C\uFF0E\u3002]/g;

/** Full-width digits and separators (a Chinese input method) as ASCII: "１２，５" → "12,5". */
function asciiDigits(text: string): string {
  return text.replace(FULL_WIDTH, (c) => {
    const code = c.charCodeAt(0);
    if (code >= 0xff10 && code <= 0xff19) return String(code - 0xff10);
    return code === 0xff0c ? ',' : '.';
  });
}

/**
 * A non-negative decimal number written with either separator: "1.5" and "1,5" are both 1.5 (the zh-CN and en
 * consoles write "1.5"; a comma is taken as a decimal separator too). "1,500" could be either 1.5 or 1500, so it is
 * refused as ambiguous, as are grouping forms like "1,234.5".
 */
export function parseDecimal(text: string): { ok: true; value: number; digits: string } | { ok: false; problem: UnitProblem } {
  const t = asciiDigits(text).trim().replace(/^\+/, '');
  if (t === '') return { ok: false, problem: { key: 'units.required' } };
  if (/^-/.test(t)) return { ok: false, problem: { key: 'units.negative' } };
  if (/^\d+,\d{3}$/.test(t)) return { ok: false, problem: { key: 'units.ambiguousComma', values: { text: t } } };
  const normal = t.replace(',', '.');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(normal)) return { ok: false, problem: { key: 'units.notANumber' } };
  return { ok: true, value: Number(normal), digits: normal };
}

/** "Too large: at most <limit> <unit>"; `unit` is an i18n key ("units.cpu") or '' when the limit says it. */
function tooLarge(limit: string, unit = ''): Parsed {
  return { ok: false, problem: { key: 'units.tooLarge', values: { limit, unit } } };
}

function fail(key: string, values?: Record<string, string | number>): Parsed {
  return values ? { ok: false, problem: { key, values } } : { ok: false, problem: { key } };
}

/** CPU in cores: "8", "1.5", "1,5" or millicores "500m". `api` is "8" or "1500m". */
export function parseCpu(text: string, maxMilli: number, minMilli = 0): Parsed {
  const t = asciiDigits(text).trim();
  const milliForm = /^(.*\d)\s*m$/.exec(t);
  const number = parseDecimal(milliForm ? (milliForm[1] ?? '') : t.replace(/\s*cores?$/i, ''));
  if (!number.ok) return { ok: false, problem: number.problem };
  const milli = Math.round(milliForm ? number.value : number.value * 1000);
  if (milliForm && !Number.isInteger(number.value)) return fail('units.wholeMillicores');
  if (milli > maxMilli) return tooLarge(trimNumber(maxMilli / 1000, 3), 'units.cpu');
  if (milli < minMilli) return fail('units.tooSmall', { limit: trimNumber(minMilli / 1000, 3), unit: 'units.cpu' });
  const api = milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
  return { ok: true, value: milli, api, shown: trimNumber(milli / 1000, 3) };
}

const MEMORY_UNITS: Record<string, [number, string]> = {
  Mi: [MIB, 'Mi'],
  MiB: [MIB, 'Mi'],
  Gi: [GIB, 'Gi'],
  GiB: [GIB, 'Gi'],
  Ti: [TIB, 'Ti'],
  TiB: [TIB, 'Ti'],
  M: [1e6, 'M'],
  MB: [1e6, 'M'],
  G: [1e9, 'G'],
  GB: [1e9, 'G'],
  T: [1e12, 'T'],
  TB: [1e12, 'T'],
};

/** Whole bytes as the server's memory quantity: "64Gi", "1536Mi", else rounded up to whole KiB. */
function memoryQuantity(bytes: number): string {
  if (bytes === 0) return '0';
  if (bytes % GIB === 0) return `${bytes / GIB}Gi`;
  if (bytes % MIB === 0) return `${bytes / MIB}Mi`;
  return `${Math.ceil(bytes / KIB)}Ki`;
}

/**
 * Memory in a field labelled GiB: a bare number is GiB ("64" → 64 GiB, "1,5" → 1.5 GiB); Mi, Gi, Ti, M, G and T
 * (also written MiB, GB, …) say their own unit. `api` always carries a unit, as the server requires.
 */
export function parseMemoryGiB(text: string, maxBytes: number, minBytes = 0): Parsed {
  const t = asciiDigits(text).trim();
  const m = /^(.*?)\s*([A-Za-z]+)?$/.exec(t);
  const suffix = m?.[2];
  const unit = suffix === undefined ? ([GIB, 'Gi'] as [number, string]) : MEMORY_UNITS[suffix];
  if (unit === undefined) return fail('units.memoryUnit', { unit: suffix ?? '' });
  const number = parseDecimal(m?.[1] ?? '');
  if (!number.ok) return { ok: false, problem: number.problem };
  const bytes = Math.ceil(number.value * unit[0]);
  if (bytes > maxBytes) return tooLarge(formatBytes(maxBytes));
  if (bytes < minBytes) return fail('units.tooSmall', { limit: formatBytes(minBytes) });
  const exact = suffix !== undefined && Number.isInteger(number.value) && number.value > 0;
  const api = exact ? `${number.value}${unit[1]}` : memoryQuantity(bytes);
  return { ok: true, value: bytes, api, shown: formatBytes(bytes) };
}

/** A count of whole things (accelerators, jobs, workers): no sign, no fraction, at most `max`. */
export function parseCount(text: string, max: number, unit = 'units.accelerator'): Parsed {
  const number = parseDecimal(text);
  if (!number.ok) return { ok: false, problem: number.problem };
  if (!Number.isInteger(number.value)) return fail('units.wholeNumber');
  if (number.value > max) return tooLarge(String(max), unit);
  const n = number.value;
  return { ok: true, value: n, api: String(n), shown: String(n) };
}

const DURATION_UNITS: [string, number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/**
 * A duration such as "90m", "12h", "3d" or "1,5h"; a bare number is in `bareUnit` (hours by default).
 * `api` is the server's form: a whole number of the largest unit that fits exactly ("1.5h" → "90m").
 */
export function parseDuration(text: string, maxSeconds: number, bareUnit: 's' | 'm' | 'h' | 'd' = 'h'): Parsed {
  const t = asciiDigits(text).trim();
  const m = /^(.*?)\s*([smhd])?$/.exec(t);
  const unit = m?.[2] ?? bareUnit;
  const number = parseDecimal(m?.[1] ?? '');
  if (!number.ok) return { ok: false, problem: number.problem };
  const size = DURATION_UNITS.find(([u]) => u === unit)?.[1] ?? 1;
  const seconds = number.value * size;
  if (!Number.isInteger(seconds)) return fail('units.wholeSeconds');
  if (seconds === 0) return fail('units.tooSmall', { limit: '1s' });
  if (seconds > maxSeconds) return tooLarge(formatDuration(maxSeconds));
  // A whole number with its unit is sent as written ("24h" stays "24h"); otherwise in the largest exact unit.
  const [u, s] = DURATION_UNITS.find(([, sz]) => seconds % sz === 0) ?? ['s', 1];
  const api = m?.[2] !== undefined && Number.isInteger(number.value) ? `${number.value}${unit}` : `${seconds / s}${u}`;
  return { ok: true, value: seconds, api, shown: formatDuration(seconds) };
}

/** Money in the currency's main unit with at most 6 decimals: "12,5" → 12500000 micro-units, `api` "12.5". */
export function parseMoney(text: string, maxMicro: number): Parsed {
  const number = parseDecimal(text);
  if (!number.ok) return { ok: false, problem: number.problem };
  const [whole = '0', fraction = ''] = number.digits.split('.');
  if (fraction.length > 6) return fail('units.tooManyDecimals', { digits: 6 });
  const micro = Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
  if (micro > maxMicro) return tooLarge(formatMoney(maxMicro));
  return { ok: true, value: micro, api: formatMoney(micro), shown: formatMoney(micro) };
}

/** Micro-units of money as a plain decimal: 12500000 → "12.5". */
/** Money that may be negative (spent beyond what was issued): "-2.5" for -2500000. */
export function formatSignedMoney(micro: number): string {
  return micro < 0 ? `-${formatMoney(-micro)}` : formatMoney(micro);
}

export function formatMoney(micro: number): string {
  const whole = Math.floor(micro / 1_000_000);
  const fraction = String(micro % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/**
 * A quota or limit amount of a resource as the console's fields take it: cpu in cores, memory in GiB, an
 * accelerator model in whole devices.
 */
export function parseResourceAmount(
  resource: string,
  text: string,
  limits: { maxCpuMilli: number; maxMemoryBytes: number; maxAccelerators: number },
): Parsed {
  switch (resourceKind(resource)) {
    case 'cpu':
      return parseCpu(text, limits.maxCpuMilli);
    case 'memory':
      return parseMemoryGiB(text, limits.maxMemoryBytes);
    case 'accelerator':
      return parseCount(text, limits.maxAccelerators);
  }
}

/** A server quantity of a resource in the field's own unit, for editing: "64Gi" → "64", "500m" cpu → "0.5". */
export function quantityToField(resource: string, quantity: string): string {
  const milli = parseQuantityMilli(quantity);
  if (milli === null) return quantity;
  switch (resourceKind(resource)) {
    case 'memory': {
      const gib = milli / 1000 / GIB;
      return Math.round(gib * 1000) / 1000 === gib ? trimNumber(gib, 3) : quantity;
    }
    case 'cpu':
      return milli % 1 === 0 ? trimNumber(milli / 1000, 3) : quantity;
    case 'accelerator':
      return trimNumber(milli / 1000, 3);
  }
}

/** i18n key of a resource's display unit. */
export function unitKey(resource: string): string {
  return `units.${resourceKind(resource)}`;
}
