import type { Limits } from '../../api/types';
import { isValidAmount } from '../../lib/units';

/** Editable form of Limits: every value as text; an empty text means "no limit" (or "inherit" for a member). */
export interface LimitsForm {
  resources: Record<string, string>;
  maxRunningJobs: string;
  maxInteractiveSessions: string;
}

export type LimitsFormErrors = Partial<Record<string, string>>;

export function limitsToForm(limits: Limits | undefined, resourceKeys: readonly string[]): LimitsForm {
  const resources: Record<string, string> = {};
  for (const key of resourceKeys) resources[key] = limits?.resources?.[key] ?? '';
  for (const [key, value] of Object.entries(limits?.resources ?? {})) resources[key] = value;
  return {
    resources,
    maxRunningJobs: limits?.maxRunningJobs == null ? '' : String(limits.maxRunningJobs),
    maxInteractiveSessions: limits?.maxInteractiveSessions == null ? '' : String(limits.maxInteractiveSessions),
  };
}

function parseCount(text: string): number | null | undefined {
  const v = text.trim();
  if (v === '') return null;
  if (!/^\d+$/.test(v)) return undefined;
  return Number.parseInt(v, 10);
}

/**
 * Validates the form and builds the Limits body. Errors are keyed by "resource:<key>",
 * "maxRunningJobs" or "maxInteractiveSessions" and hold an i18n key.
 */
export function formToLimits(form: LimitsForm): { limits: Limits; errors: LimitsFormErrors } {
  const errors: LimitsFormErrors = {};
  const resources: Record<string, string> = {};
  for (const [key, raw] of Object.entries(form.resources)) {
    const value = raw.trim();
    if (value === '') continue;
    if (!isValidAmount(key, value)) errors[`resource:${key}`] = 'limits.invalidAmount';
    else resources[key] = value;
  }
  const jobs = parseCount(form.maxRunningJobs);
  if (jobs === undefined) errors.maxRunningJobs = 'limits.invalidCount';
  const sessions = parseCount(form.maxInteractiveSessions);
  if (sessions === undefined) errors.maxInteractiveSessions = 'limits.invalidCount';
  return {
    limits: { resources, maxRunningJobs: jobs ?? null, maxInteractiveSessions: sessions ?? null },
    errors,
  };
}

/** Whether the limits set nothing (for a member: everything inherits the account default). */
export function isEmptyLimits(limits: Limits | undefined | null): boolean {
  if (!limits) return true;
  return (
    Object.keys(limits.resources ?? {}).length === 0 && limits.maxRunningJobs == null && limits.maxInteractiveSessions == null
  );
}
