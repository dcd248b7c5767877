import type { QuotaItem, QuotaLine } from '../../api/types';
import { QUOTA_LIMITS } from '../../lib/limits';
import { parseResourceAmount, quantityToField, type Parsed, type UnitProblem } from '../../lib/units';

/**
 * Rows of the quota editor, initialised from the configured (not granted) amounts, each in its field's unit
 * (memory in GiB: "64Gi" is edited as "64").
 */
export function quotaRowsFrom(lines: readonly QuotaLine[]): QuotaItem[] {
  return lines.map((l) => ({
    resource: l.resource,
    guaranteed: quantityToField(l.resource, l.guaranteed),
    max: quantityToField(l.resource, l.max),
  }));
}

/** One quota amount as the editor reads it: cpu in cores, memory in GiB, accelerators in whole devices. */
export function parseQuotaAmount(resource: string, text: string): Parsed {
  return parseResourceAmount(resource, text, QUOTA_LIMITS);
}

/**
 * Checks the rows as the server will: amounts in their unit and within the limits, max ≥ guaranteed, each
 * resource once. Problems are keyed like the server's field paths ("items[0].max").
 */
export function validateQuotaRows(rows: readonly QuotaItem[]): Record<string, UnitProblem> {
  const errors: Record<string, UnitProblem> = {};
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    if (seen.has(row.resource)) errors[`items[${i}].resource`] = { key: 'quota.duplicate' };
    seen.add(row.resource);
    const g = parseQuotaAmount(row.resource, row.guaranteed);
    const m = parseQuotaAmount(row.resource, row.max);
    if (!g.ok) errors[`items[${i}].guaranteed`] = g.problem;
    if (!m.ok) errors[`items[${i}].max`] = m.problem;
    else if (g.ok && m.value < g.value) errors[`items[${i}].max`] = { key: 'quota.maxBelowGuaranteed' };
  });
  return errors;
}

/** The rows as the PUT body items, each amount in the server's form ("64" GiB → "64Gi"). */
export function quotaItems(rows: readonly QuotaItem[]): QuotaItem[] {
  const api = (resource: string, text: string) => {
    const p = parseQuotaAmount(resource, text);
    return p.ok ? p.api : text.trim();
  };
  return rows.map((r) => ({ resource: r.resource, guaranteed: api(r.resource, r.guaranteed), max: api(r.resource, r.max) }));
}
