import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { usageCsvUrl } from '../../api/accounting';
import type { Holding } from '../../api/types';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnSecondary, tableWrap, td, th } from '../../components/common/ui';
import { formatResourceMilli, resourceKind } from '../../lib/units';
import { useModelNames } from '../catalog/queries';
import { DailyCostChart } from './DailyCostChart';
import { monthDays } from './dailyCost';
import { moneyText, priceText, resourceName } from './money';
import { usageQuery } from './queries';
import { monthLabel, monthSpan } from './reportMonth';

const HELD_UNITS = { cpu: 'units.cpu', memory: 'units.memory', accelerator: 'units.accelerator' } as const;

/** What the account's running jobs hold now, each resource's price and what it all costs per hour. */
export function HoldingTable({ holding, currency }: { holding: readonly Holding[]; currency: string }) {
  const { t } = useTranslation();
  const modelName = useModelNames();
  if (holding.length === 0) {
    return (
      <p data-testid="holding-empty" className="text-sm text-slate-500">
        {t('accounting.holding.empty')}
      </p>
    );
  }
  const total = holding.reduce((sum, h) => sum + h.costPerHourMicros, 0);
  return (
    <div className={tableWrap}>
      <table className="min-w-full" data-testid="holding-table">
        <thead className="bg-slate-50">
          <tr>
            <th className={th}>{t('accounting.holding.resource')}</th>
            <th className={`${th} text-right`}>{t('accounting.holding.held')}</th>
            <th className={`${th} text-right`}>{t('accounting.holding.price')}</th>
            <th className={`${th} text-right`}>{t('accounting.holding.perHour', { currency })}</th>
          </tr>
        </thead>
        <tbody>
          {holding.map((h) => (
            <tr key={h.resource} className="border-t border-slate-100" data-testid="holding-row" data-resource={h.resource}>
              <td className={td}>{resourceName(t, h.resource, modelName)}</td>
              <td className={`${td} text-right tabular-nums`}>
                {formatResourceMilli(h.resource, h.milli)} {t(HELD_UNITS[resourceKind(h.resource)])}
              </td>
              <td className={`${td} text-right tabular-nums`}>{priceText(t, h.pricePerHour, currency, h.resource)}</td>
              <td className={`${td} text-right tabular-nums`}>{moneyText(h.costPerHourMicros, currency)}</td>
            </tr>
          ))}
          <tr className="border-t border-slate-200 bg-slate-50">
            <td className={`${td} font-medium`} colSpan={3}>
              {t('accounting.holding.total')}
            </td>
            <td className={`${td} text-right font-semibold tabular-nums`} data-testid="holding-total">
              {t('accounting.holding.totalValue', { amount: moneyText(total, currency) })}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/**
 * A month's cost per day as a bar chart (this month's when {@code month} is not given), and the month's usage by user
 * as a CSV download.
 */
export function MonthCost({ slug, ownOnly, month }: { slug: string; ownOnly: boolean; month?: string }) {
  const { t, i18n } = useTranslation();
  const span = month ? monthSpan(month) : {};
  const named = month ? { month: monthLabel(month, i18n.language) } : null;
  const query = useQuery(usageQuery({ account: slug, by: 'day', ...span }));
  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError)
    body = <ErrorState title={t('accounting.month.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const days = monthDays(query.data.rows);
    body =
      days.length === 0 ? (
        <EmptyState title={named ? t('accounting.month.emptyIn', named) : t('accounting.month.empty')} />
      ) : (
        <>
          <p className="text-sm text-slate-600" data-testid="month-total">
            {named
              ? t('accounting.month.totalIn', { ...named, amount: moneyText(query.data.totalMicros, query.data.currency) })
              : t('accounting.month.total', { amount: moneyText(query.data.totalMicros, query.data.currency) })}
          </p>
          <DailyCostChart days={days} currency={query.data.currency} />
        </>
      );
  }
  return (
    <div className="flex flex-col gap-2" data-testid="month-cost">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-800">
          {named ? t('accounting.month.titleIn', named) : t('accounting.month.title')}
        </h3>
        <a href={usageCsvUrl({ account: slug, by: 'user', ...span })} download data-testid="usage-csv" className={btnSecondary}>
          {t('accounting.month.csv')}
        </a>
      </div>
      {ownOnly && <p className="text-xs text-slate-500">{t('accounting.month.ownOnly')}</p>}
      {body}
    </div>
  );
}
