import { isApiError } from '../../api/errors';
import type { TemplateParameter } from '../../api/types';
import type { Parsed, UnitProblem } from '../../lib/units';
import { PARAMETER_FIELD_PREFIX } from '../templates/parameterForm';
import { JOB_FIELD_PARSERS } from './jobForm';

/** The job spec fields whose amount a template parameter may fill, with the parser of the job form for each. */
const TARGET_PARSERS: Record<string, { parse: (text: string) => Parsed; unitKey: string }> = {
  'resources.cpu': { parse: JOB_FIELD_PARSERS.cpu, unitKey: 'units.cpu' },
  'resources.memory': { parse: JOB_FIELD_PARSERS.memory, unitKey: 'units.memory' },
  'resources.sharedMemory': { parse: JOB_FIELD_PARSERS.sharedMemory, unitKey: 'units.memory' },
  'resources.accelerators': { parse: JOB_FIELD_PARSERS.accelerators, unitKey: 'units.accelerator' },
  workers: { parse: JOB_FIELD_PARSERS.workers, unitKey: '' },
  timeLimit: { parse: JOB_FIELD_PARSERS.timeLimit, unitKey: 'units.hours' },
};

const WHOLE_PLACEHOLDER = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * Which spec field each parameter fills on its own: `resources: {memory: "${mem}"}` makes "mem" the
 * parameter of "resources.memory". A placeholder inside a longer value ("${n}Gi") fills no field by itself.
 */
export function parameterTargets(spec: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      const m = WHOLE_PLACEHOLDER.exec(value.trim());
      if (m?.[1] !== undefined && out[m[1]] === undefined) out[m[1]] = path;
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, path === '' ? k : `${path}.${k}`);
    }
  };
  walk(spec, '');
  return out;
}

/** The amount parser (and unit) of a parameter that fills a job amount on its own; none for other parameters. */
export function amountParameter(
  p: TemplateParameter,
  targets: Record<string, string>,
): { parse: (text: string) => Parsed; unitKey: string } | undefined {
  const field = targets[p.name];
  if (field === undefined || (p.type !== 'quantity' && p.type !== 'integer' && p.type !== 'duration')) return undefined;
  return TARGET_PARSERS[field];
}

/**
 * Checks the amount parameters as the job form would (units, limits, negatives) and gives the values to send
 * in the server's form ("64" GiB → "64Gi"). Parameters left empty are left to the template's own rules.
 */
export function checkAmountParameters(
  parameters: readonly TemplateParameter[],
  values: Record<string, string>,
  targets: Record<string, string>,
): { values: Record<string, string>; errors: Record<string, UnitProblem> } {
  const out: Record<string, string> = {};
  const errors: Record<string, UnitProblem> = {};
  for (const p of parameters) {
    const amount = amountParameter(p, targets);
    const raw = values[p.name] ?? '';
    if (amount === undefined || raw.trim() === '') continue;
    const parsed = amount.parse(raw);
    if (parsed.ok) out[p.name] = parsed.api;
    else errors[p.name] = parsed.problem;
  }
  return { values: out, errors };
}

/**
 * Sorts a rejected template job's field errors: "parameters.<name>" and the spec fields a parameter fills
 * ("resources.accelerators" ← "${gpus}") go under that parameter; "name" and "priority" under theirs; the rest
 * to the summary box.
 */
export function templateFieldErrors(
  error: unknown,
  targets: Record<string, string>,
): { byParameter: Record<string, string>; shown: (field: string) => boolean } {
  const byField = new Map(Object.entries(targets).map(([name, field]) => [field, name]));
  const parameterOf = (field: string): string | undefined =>
    field.startsWith(PARAMETER_FIELD_PREFIX) ? field.slice(PARAMETER_FIELD_PREFIX.length) : byField.get(field);
  const byParameter: Record<string, string> = {};
  if (isApiError(error)) {
    for (const f of error.fieldErrors) {
      const name = parameterOf(f.field);
      if (name !== undefined) byParameter[name] = byParameter[name] ? `${byParameter[name]}; ${f.message}` : f.message;
    }
  }
  const shown = (field: string) => field === 'name' || field === 'priority' || parameterOf(field) !== undefined;
  return { byParameter, shown };
}

/**
 * The parameter that alone fills the spec's image (a `string` one), with the accelerator model the job would ask
 * for: the value of the parameter that fills `resources.acceleratorModel`, else the spec's own model ("" for none).
 * Null when no parameter fills the image by itself.
 */
export function imageParameter(
  parameters: readonly TemplateParameter[],
  spec: Record<string, unknown>,
  targets: Record<string, string>,
  values: Record<string, string>,
): { name: string; acceleratorModel: string } | null {
  const p = parameters.find((x) => targets[x.name] === 'image' && x.type === 'string');
  if (!p) return null;
  const modelParam = Object.keys(targets).find((n) => targets[n] === 'resources.acceleratorModel');
  const resources = spec.resources as Record<string, unknown> | undefined;
  const literal =
    typeof resources?.acceleratorModel === 'string' && !resources.acceleratorModel.includes('${') ? resources.acceleratorModel : '';
  return { name: p.name, acceleratorModel: modelParam !== undefined ? (values[modelParam] ?? '').trim() : literal };
}
