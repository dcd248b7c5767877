import type { FieldError } from '../../api/errors';
import type { TemplateParameter } from '../../api/types';
import { parseCommandLine } from '../jobs/commandLine';

/** Parameter values as typed, by parameter name; every value is a string ("2", "16Gi", "true", "" = none). */
export type ParameterValues = Record<string, string>;

/** Kubernetes-style quantity: a decimal number with an optional unit suffix (4, 500m, 1.5, 16Gi). */
export const QUANTITY_PATTERN = /^[0-9]+(\.[0-9]+)?(m|k|Ki|Mi|Gi|Ti|M|G|T)?$/;
/** A duration with one unit: 90m, 12h, 3d. */
export const DURATION_PATTERN = /^[0-9]{1,6}(s|m|h|d)$/;
/** A whole number of up to nine digits, optionally negative (what the server accepts). */
export const INTEGER_PATTERN = /^-?[0-9]{1,9}$/;

/** Prefix of a server field error that names a template parameter: "parameters.epochs". */
export const PARAMETER_FIELD_PREFIX = 'parameters.';

/** Whether a `boolean` parameter's value means "on" (the server spells it "true"; case is forgiven). */
export function isTrue(value: string | null | undefined): boolean {
  return (value ?? '').trim().toLowerCase() === 'true';
}

/**
 * The form's starting values: each parameter's default, "" when it has none; a `boolean` is always
 * "true" or "false" (unset means "false", the unchecked box).
 */
export function initialParameterValues(parameters: readonly TemplateParameter[]): ParameterValues {
  const values: ParameterValues = {};
  for (const p of parameters) {
    values[p.name] = p.type === 'boolean' ? String(isTrue(p.default)) : (p.default ?? '');
  }
  return values;
}

/** Text types keep their value as typed (a multi-line text may mean its spaces); the others are trimmed. */
function normalise(p: TemplateParameter, raw: string): string {
  return p.type === 'text' ? raw : raw.trim();
}

/**
 * Checks one value against its parameter. Returns the i18n key of the problem, or null when the value is
 * acceptable. An empty value is fine unless the parameter is required. `models` are the catalogue keys a
 * `model` may take; when not given (catalogue not loaded) any non-empty key is accepted.
 */
export function validateParameter(p: TemplateParameter, raw: string | undefined, models?: readonly string[]): string | null {
  const value = normalise(p, raw ?? '');
  const empty = value.trim() === '';
  if (p.type === 'boolean') {
    return value === 'true' || value === 'false' ? null : 'templates.param.booleanInvalid';
  }
  if (empty) return p.required ? 'templates.param.required' : null;
  switch (p.type) {
    case 'integer':
      return INTEGER_PATTERN.test(value) ? null : 'templates.param.integerInvalid';
    case 'quantity':
      return QUANTITY_PATTERN.test(value) ? null : 'templates.param.quantityInvalid';
    case 'duration':
      return DURATION_PATTERN.test(value) ? null : 'templates.param.durationInvalid';
    case 'choice':
      return (p.options ?? []).includes(value) ? null : 'templates.param.choiceInvalid';
    case 'model':
      return models === undefined || models.includes(value) ? null : 'templates.param.modelInvalid';
    case 'arguments':
      return parseCommandLine(value).ok ? null : 'templates.param.argumentsInvalid';
    case 'string':
    case 'text':
      return null;
    default:
      return null;
  }
}

export interface BuiltParameters {
  /** The map to send (every parameter of the template, by name), or null when a value is invalid. */
  parameters: Record<string, string> | null;
  /** Parameter name → i18n key of the problem. */
  errors: Record<string, string>;
}

/**
 * Checks every value and builds the `parameters` map of the request: one entry per parameter of the template
 * (names the template does not declare are dropped), trimmed except for `text`. Empty values are sent as ""
 * so that a cleared optional value (e.g. model "none") is not replaced by the template's default.
 */
export function buildParameters(
  parameters: readonly TemplateParameter[],
  values: ParameterValues,
  models?: readonly string[],
): BuiltParameters {
  const errors: Record<string, string> = {};
  const out: Record<string, string> = {};
  for (const p of parameters) {
    const raw = values[p.name] ?? (p.type === 'boolean' ? 'false' : '');
    const problem = validateParameter(p, raw, models);
    if (problem !== null) errors[p.name] = problem;
    else out[p.name] = normalise(p, raw);
  }
  return Object.keys(errors).length > 0 ? { parameters: null, errors } : { parameters: out, errors };
}

export interface ServerParameterErrors {
  /** Parameter name → the server's message(s), joined with "; ". */
  byName: Record<string, string>;
  /** The field errors that name no parameter (e.g. "name", "priority"), unchanged. */
  other: FieldError[];
}

/** Sorts a rejected request's field errors: "parameters.<name>" onto that parameter, the rest apart. */
export function serverParameterErrors(fieldErrors: readonly FieldError[]): ServerParameterErrors {
  const grouped: Record<string, string[]> = {};
  const other: FieldError[] = [];
  for (const f of fieldErrors) {
    const name = f.field.startsWith(PARAMETER_FIELD_PREFIX) ? f.field.slice(PARAMETER_FIELD_PREFIX.length) : '';
    if (name === '') other.push(f);
    else (grouped[name] ??= []).push(f.message);
  }
  const byName = Object.fromEntries(Object.entries(grouped).map(([k, v]) => [k, v.join('; ')]));
  return { byName, other };
}
