import type { TFunction } from 'i18next';
import type { Parsed, UnitProblem } from '../../lib/units';

/** A parse problem in the reader's language; its `unit` value is itself an i18n key ("units.cpu"). */
export function unitProblemText(t: TFunction, problem: UnitProblem): string {
  const values = { ...(problem.values ?? {}) };
  const unit = values['unit'];
  values['unit'] = typeof unit === 'string' && unit !== '' ? t(unit) : '';
  return t(problem.key, values).trim();
}

/** The value understood, in the reader's language: "= 64 GiB", "= 1.5 cores". */
export function understoodText(t: TFunction, parsed: Parsed, unitKey: string | undefined): string | undefined {
  if (!parsed.ok) return undefined;
  return t('units.understood', { value: unitKey ? `${parsed.shown} ${t(unitKey)}` : parsed.shown });
}
