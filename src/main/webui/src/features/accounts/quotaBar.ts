import type { QuotaLine } from '../../api/types';

export type QuotaAmounts = Pick<QuotaLine, 'usedMilli' | 'guaranteedMilli' | 'maxMilli' | 'grantedMilli' | 'borrowedMilli'>;

/** Geometry of one quota bar; every `*Pct` is a percentage (0–100, one decimal) of `scaleMilli`. */
export interface QuotaBar {
  /** What 100 % of the bar stands for: the effective max, or the usage when it is higher. */
  scaleMilli: number;
  /** Guaranteed + granted. */
  effectiveGuaranteedMilli: number;
  /** Max + granted. */
  effectiveMaxMilli: number;
  /** Usage covered by the account's own guarantee (used − borrowed). */
  ownPct: number;
  /** Usage borrowed from idle capacity beyond the guarantee; drawn right after `ownPct`. */
  borrowedPct: number;
  /** Position of the effective-guaranteed marker. */
  guaranteedPct: number;
  /** Position of the configured max (without grants). */
  maxPct: number;
  /** Width of the granted band, drawn from `maxPct` to `effectiveMaxPct`. */
  grantedPct: number;
  effectiveMaxPct: number;
  /** Usage beyond the effective max (possible after a quota was lowered). */
  overMax: boolean;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function nonNegative(v: number): number {
  return Number.isFinite(v) && v > 0 ? v : 0;
}

function pct(part: number, scale: number): number {
  if (scale <= 0) return 0;
  return Math.round(clamp(part / scale, 0, 1) * 1000) / 10;
}

/** Computes the segments and markers of a quota bar from the milli-unit amounts of a quota line. */
export function quotaBar(line: QuotaAmounts): QuotaBar {
  const used = nonNegative(line.usedMilli);
  const guaranteed = nonNegative(line.guaranteedMilli);
  const max = nonNegative(line.maxMilli);
  const granted = nonNegative(line.grantedMilli);
  const borrowed = clamp(nonNegative(line.borrowedMilli), 0, used);
  const effectiveGuaranteed = guaranteed + granted;
  const effectiveMax = max + granted;
  const scale = Math.max(effectiveMax, used);
  const ownPct = pct(used - borrowed, scale);
  const borrowedPct = Math.min(pct(borrowed, scale), Math.round((100 - ownPct) * 10) / 10);
  const maxPct = pct(max, scale);
  const effectiveMaxPct = pct(effectiveMax, scale);
  return {
    scaleMilli: scale,
    effectiveGuaranteedMilli: effectiveGuaranteed,
    effectiveMaxMilli: effectiveMax,
    ownPct,
    borrowedPct,
    guaranteedPct: pct(effectiveGuaranteed, scale),
    maxPct,
    grantedPct: Math.round((effectiveMaxPct - maxPct) * 10) / 10,
    effectiveMaxPct,
    overMax: used > effectiveMax,
  };
}
