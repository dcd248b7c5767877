import type { TFunction } from 'i18next';
import type { BudgetInfo } from '../../api/types';

/** What an amount is "per": month, week, or a custom period's number of days ("90 days"). */
export function perPeriod(t: TFunction, b: Pick<BudgetInfo, 'period' | 'periodDays'>): string {
  return b.period === 'custom' ? t('accounting.period.custom', { count: b.periodDays ?? 0 }) : t(`accounting.period.${b.period}`);
}

/** What "this …" is: month, week, or for a custom period the word period. */
export function thisPeriod(t: TFunction, b: Pick<BudgetInfo, 'period'>): string {
  return b.period === 'custom' ? t('accounting.period.customShort') : t(`accounting.period.${b.period}`);
}
