import { isApiError } from './errors';

/**
 * Which of a rejected request's field errors the form shows under its own fields, and which are left for the
 * summary box (fields the form has no input for). `shown` holds the field paths the form renders.
 */
export function splitFieldErrors(error: unknown, shown: (field: string) => boolean): { byField: Record<string, string>; rest: string[] } {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  if (!isApiError(error)) return { byField, rest };
  for (const f of error.fieldErrors) {
    if (f.field !== '' && shown(f.field) && byField[f.field] === undefined) byField[f.field] = f.message;
    else rest.push(f.field ? `${f.field}: ${f.message}` : f.message);
  }
  return { byField, rest };
}
