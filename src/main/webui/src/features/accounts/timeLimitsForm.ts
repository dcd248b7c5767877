import type { TimeLimitField, TimeLimits, TimeLimitsUpdate } from '../../api/types';
import { parseDuration, type Parsed } from '../../lib/units';

/** The limits in table order: interactive then batch, each default then max. */
export const TIME_LIMIT_FIELDS: readonly TimeLimitField[] = ['interactiveDefault', 'interactiveMax', 'batchDefault', 'batchMax'];

/** Editable form of an account's own time limits; an empty text means "use the platform's". */
export type TimeLimitsForm = Record<TimeLimitField, string>;

/** i18n keys of the problems found, by field. */
export type TimeLimitsFormErrors = Partial<Record<TimeLimitField, string>>;

/** The longest duration the server's form takes (six digits of days). */
const MAX_SECONDS = 999_999 * 86_400;

/**
 * A time limit as the form reads it (lib/units): "90m", "12h", "3d", "1,5h"; a bare number is hours.
 */
export function parseTimeLimit(text: string): Parsed {
  return parseDuration(text, MAX_SECONDS, 'h');
}

/** Seconds of a duration such as "90m", "12h", "3d" or "12" (hours); null when the text is not one. */
export function durationSeconds(text: string): number | null {
  const p = parseTimeLimit(text);
  return p.ok ? p.value : null;
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
    const p = parseTimeLimit(value);
    if (!p.ok) {
      errors[field] = 'accounts.timeLimits.invalidDuration';
      continue;
    }
    seconds[field] = p.value;
    body[field] = p.api;
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
