import type { TimeLimitField, TimeLimits, TimeLimitsUpdate } from '../../api/types';

/** The limits in table order: interactive then batch, each default then max. */
export const TIME_LIMIT_FIELDS: readonly TimeLimitField[] = ['interactiveDefault', 'interactiveMax', 'batchDefault', 'batchMax'];

/** Editable form of an account's own time limits; an empty text means "use the platform's". */
export type TimeLimitsForm = Record<TimeLimitField, string>;

/** i18n keys of the problems found, by field. */
export type TimeLimitsFormErrors = Partial<Record<TimeLimitField, string>>;

const DURATION = /^([0-9]{1,6})(s|m|h|d)$/;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/** Seconds of a duration such as "90m", "12h" or "3d"; null when the text is not one. */
export function durationSeconds(text: string): number | null {
  const m = DURATION.exec(text.trim());
  if (!m) return null;
  return Number.parseInt(m[1] ?? '', 10) * (UNIT_SECONDS[m[2] ?? ''] ?? 0);
}

export function timeLimitsToForm(limits: TimeLimits): TimeLimitsForm {
  return {
    interactiveDefault: limits.interactiveDefault ?? '',
    interactiveMax: limits.interactiveMax ?? '',
    batchDefault: limits.batchDefault ?? '',
    batchMax: limits.batchMax ?? '',
  };
}

/**
 * Validates the form and builds the PUT body (empty fields are left out, so the platform's apply).
 * A default must not be longer than the max of the same kind when both are set.
 */
export function formToTimeLimits(form: TimeLimitsForm): { body: TimeLimitsUpdate; errors: TimeLimitsFormErrors } {
  const body: TimeLimitsUpdate = {};
  const errors: TimeLimitsFormErrors = {};
  const seconds: Partial<Record<TimeLimitField, number>> = {};
  for (const field of TIME_LIMIT_FIELDS) {
    const value = form[field].trim();
    if (value === '') continue;
    const s = durationSeconds(value);
    if (s === null) {
      errors[field] = 'accounts.timeLimits.invalidDuration';
      continue;
    }
    seconds[field] = s;
    body[field] = value;
  }
  const pairs: [TimeLimitField, TimeLimitField][] = [
    ['interactiveDefault', 'interactiveMax'],
    ['batchDefault', 'batchMax'],
  ];
  for (const [def, max] of pairs) {
    const d = seconds[def];
    const m = seconds[max];
    if (d !== undefined && m !== undefined && d > m) errors[def] = 'accounts.timeLimits.defaultOverMax';
  }
  return { body, errors };
}
