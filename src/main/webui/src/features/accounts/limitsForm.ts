import type { Limits } from '../../api/types';
import { MAX_COUNT_LIMIT, QUOTA_LIMITS } from '../../lib/limits';
import { parseCount, parseResourceAmount, quantityToField, type Parsed, type UnitProblem } from '../../lib/units';

/** Editable form of Limits: every value as text; an empty text means "no limit" (or "inherit" for a member). */
export interface LimitsForm {
  resources: Record<string, string>;
  maxRunningJobs: string;
  maxInteractiveSessions: string;
}

/** Problems keyed by the server's field paths: "resources.<key>", "maxRunningJobs", "maxInteractiveSessions". */
export type LimitsFormErrors = Partial<Record<string, UnitProblem>>;

/** The form's own field paths, so the server's errors for them are shown under the inputs. */
export function isLimitsField(field: string): boolean {
  return field.startsWith('resources.') || field === 'maxRunningJobs' || field === 'maxInteractiveSessions';
}

/** A limit amount as its field reads it: cpu in cores, memory in GiB, accelerators in whole devices. */
export function parseLimitAmount(resource: string, text: string): Parsed {
  return parseResourceAmount(resource, text, QUOTA_LIMITS);
}

/** A limit count: a whole number of jobs or sessions. */
export function parseLimitCount(text: string): Parsed {
  return parseCount(text, MAX_COUNT_LIMIT, '');
}

export function limitsToForm(limits: Limits | undefined, resourceKeys: readonly string[]): LimitsForm {
  const resources: Record<string, string> = {};
  for (const key of resourceKeys) resources[key] = '';
  for (const [key, value] of Object.entries(limits?.resources ?? {})) resources[key] = quantityToField(key, value);
  return {
    resources,
    maxRunningJobs: limits?.maxRunningJobs == null ? '' : String(limits.maxRunningJobs),
    maxInteractiveSessions: limits?.maxInteractiveSessions == null ? '' : String(limits.maxInteractiveSessions),
  };
}

/** Validates the form and builds the Limits body, each amount in the server's form ("64" GiB → "64Gi"). */
export function formToLimits(form: LimitsForm): { limits: Limits; errors: LimitsFormErrors } {
  const errors: LimitsFormErrors = {};
  const resources: Record<string, string> = {};
  for (const [key, raw] of Object.entries(form.resources)) {
    if (raw.trim() === '') continue;
    const p = parseLimitAmount(key, raw);
    if (p.ok) resources[key] = p.api;
    else errors[`resources.${key}`] = p.problem;
  }
  const count = (field: 'maxRunningJobs' | 'maxInteractiveSessions'): number | null => {
    if (form[field].trim() === '') return null;
    const p = parseLimitCount(form[field]);
    if (p.ok) return p.value;
    errors[field] = p.problem;
    return null;
  };
  const maxRunningJobs = count('maxRunningJobs');
  const maxInteractiveSessions = count('maxInteractiveSessions');
  return { limits: { resources, maxRunningJobs, maxInteractiveSessions }, errors };
}

/** Whether the limits set nothing (for a member: everything inherits the account default). */
export function isEmptyLimits(limits: Limits | undefined | null): boolean {
  if (!limits) return true;
  return Object.keys(limits.resources ?? {}).length === 0 && limits.maxRunningJobs == null && limits.maxInteractiveSessions == null;
}
