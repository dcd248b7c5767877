import type { QuotaItem, QuotaLine } from '../../api/types';
import { parseQuantityMilli, resourceKind } from '../../lib/units';

/** Rows of the quota editor, initialised from the configured (not granted) amounts. */
export function quotaRowsFrom(lines: readonly QuotaLine[]): QuotaItem[] {
  return lines.map((l) => ({ resource: l.resource, guaranteed: l.guaranteed, max: l.max }));
}

/**
 * Checks the rows as the server will: known quantity syntax, whole accelerator devices, max ≥ guaranteed,
 * each resource once. Errors are keyed like the server's field paths ("items[0].max") and hold i18n keys.
 */
export function validateQuotaRows(rows: readonly QuotaItem[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    if (seen.has(row.resource)) errors[`items[${i}].resource`] = 'quota.duplicate';
    seen.add(row.resource);
    const g = parseQuantityMilli(row.guaranteed);
    const m = parseQuantityMilli(row.max);
    const whole = resourceKind(row.resource) === 'accelerator';
    if (g === null || (whole && g % 1000 !== 0)) errors[`items[${i}].guaranteed`] = 'quota.invalidQuantity';
    if (m === null || (whole && m % 1000 !== 0)) errors[`items[${i}].max`] = 'quota.invalidQuantity';
    else if (g !== null && m < g) errors[`items[${i}].max`] = 'quota.maxBelowGuaranteed';
  });
  return errors;
}

/** The trimmed rows as the PUT body items. */
export function quotaItems(rows: readonly QuotaItem[]): QuotaItem[] {
  return rows.map((r) => ({ resource: r.resource, guaranteed: r.guaranteed.trim(), max: r.max.trim() }));
}
