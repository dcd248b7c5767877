import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/errors';
import type { BudgetView } from '../../api/types';
import { ResourceBar } from '../../components/common/ResourceBar';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnSecondary, card } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { SetBudgetDialog, TopUpDialog } from './BudgetForms';
import { LedgerTable } from './LedgerTable';
import { moneyText } from './money';
import { perPeriod, thisPeriod } from './period';
import { monthLabel, recentMonths } from './reportMonth';
import { budgetQuery } from './queries';
import { AllotmentsPanel } from './AllotmentsPanel';
import { GpuUsePanel } from './GpuUsePanel';
import { WaitsPanel } from './WaitsPanel';
import { StatementsTable } from './StatementsTable';
import { HoldingTable, MonthCost } from './UsageParts';

/** The burn-rate sentence: what the last 24 h cost and, with a budget, when the balance runs out at that rate. */
/** Which month the cost, GPU use and waits below show: this month (the default) or one of the twelve before it. */
function MonthPicker({ value, onChange }: { value: string; onChange: (month: string) => void }) {
  const { t, i18n } = useTranslation();
  const months = recentMonths(new Date());
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <span>{t('accounting.reportMonth')}</span>
      <select
        className="rounded border border-slate-300 px-2 py-1 text-sm"
        data-testid="report-month"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{t('accounting.currentMonth')}</option>
        {months.slice(1).map((m) => (
          <option key={m} value={m}>
            {monthLabel(m, i18n.language)}
          </option>
        ))}
      </select>
    </label>
  );
}

function burnText(view: BudgetView, t: TFunction, language: string): string {
  const { burn, currency } = view;
  if (burn.perDayMicros <= 0) return t('accounting.burn.nothing');
  const cost = moneyText(burn.perDayMicros, currency);
  if (burn.runsOutAt === null) return t('accounting.burn.lastDay', { cost });
  if (view.balanceMicros <= 0) return t('accounting.burn.usedUp', { cost });
  return t('accounting.burn.runsOut', { cost, date: formatDateTime(burn.runsOutAt, language) });
}

function Summary({ view }: { view: BudgetView }) {
  const { t, i18n } = useTranslation();
  const b = view.budget;
  const negative = view.balanceMicros < 0;
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-xs text-slate-500">{t('accounting.balance')}</dt>
          <dd
            data-testid="budget-balance"
            data-negative={negative}
            className={`text-2xl font-semibold tabular-nums ${negative ? 'text-rose-700' : 'text-slate-900'}`}
          >
            {moneyText(view.balanceMicros, view.currency)}
          </dd>
          {negative && <p className="text-xs text-rose-700">{t('accounting.negative')}</p>}
        </div>
        <div>
          <dt className="text-xs text-slate-500">{b ? t('accounting.spentPeriod') : t('accounting.spentTotal')}</dt>
          <dd data-testid="budget-spent" className="text-2xl font-semibold tabular-nums text-slate-900">
            {moneyText(view.spentMicros, view.currency)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">{t('accounting.budget')}</dt>
          {b ? (
            <dd data-testid="budget-info" className="text-sm text-slate-700">
              <span className="block text-lg font-semibold tabular-nums text-slate-900">
                {t('accounting.budgetAmount', {
                  amount: moneyText(b.amountMicros, view.currency),
                  period: perPeriod(t, b),
                })}
              </span>
              <span className="block">
                {t('accounting.budgetTerms', { policy: t(`accounting.policy.${b.policy}`), renewal: t(`accounting.renewal.${b.renewal}`) })}
              </span>
              <span className="block text-xs text-slate-500">
                {t('accounting.periodSpan', {
                  from: formatDateTime(b.periodStart, i18n.language),
                  to: formatDateTime(b.periodEnd, i18n.language),
                })}
              </span>
            </dd>
          ) : (
            <dd data-testid="budget-none" className="text-sm text-slate-700">
              <span className="block font-medium">{t('accounting.noBudget')}</span>
              <span className="block text-xs text-slate-500">{t('accounting.noBudgetHint')}</span>
            </dd>
          )}
        </div>
      </dl>
      {b && view.usedPercent !== null && (
        <div className="flex flex-col gap-1">
          <ResourceBar used={Math.min(100, view.usedPercent)} total={100} label={t('accounting.usedLabel')} />
          <p className="text-xs text-slate-500" data-testid="budget-used">
            {t('accounting.used', { percent: view.usedPercent, period: thisPeriod(t, b) })}
          </p>
        </div>
      )}
      <p className="text-sm text-slate-700" data-testid="budget-burn">
        {burnText(view, t, i18n.language)}
      </p>
      {b && b.policy !== 'soft' && <p className="text-xs text-slate-500">{t(`accounting.policyMeaning.${b.policy}`)}</p>}
    </div>
  );
}

/**
 * The account's money for every member: balance, budget, burn rate, what its running jobs cost now, this month's
 * cost per day and the ledger. Platform admins set the budget and top it up here.
 */
export function BudgetSection({ slug, platformAdmin, accountAdmin }: { slug: string; platformAdmin: boolean; accountAdmin: boolean }) {
  const { t } = useTranslation();
  const query = useQuery(budgetQuery(slug));
  const [dialog, setDialog] = useState<'budget' | 'top-up' | null>(null);
  const [month, setMonth] = useState<string>('');
  // Only members and platform admins may read the account's money: for anyone else the section is left out.
  if (query.isError && isApiError(query.error) && query.error.status === 403) return null;
  const ownOnly = !platformAdmin && !accountAdmin;

  return (
    <section aria-labelledby="budget-heading" data-testid="budget-section" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="budget-heading" className="text-lg font-semibold text-slate-800">
          {t('accounting.title')}
        </h2>
        <div className="flex gap-2">
          <Link to="/prices" data-testid="budget-prices-link" className={btnSecondary}>
            {t('accounting.pricesLink')}
          </Link>
          {platformAdmin && query.isSuccess && (
            <>
              <button type="button" data-testid="budget-set" className={btnSecondary} onClick={() => setDialog('budget')}>
                {t('accounting.setBudget')}
              </button>
              <button type="button" data-testid="budget-top-up" className={btnSecondary} onClick={() => setDialog('top-up')}>
                {t('accounting.topUp.open')}
              </button>
            </>
          )}
        </div>
      </div>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('accounting.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <div className={card}>
            <Summary view={query.data} />
          </div>
          <div className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold text-slate-800">{t('accounting.holding.title')}</h3>
            <HoldingTable holding={query.data.holding} currency={query.data.currency} />
          </div>
          <AllotmentsPanel slug={slug} admin={!ownOnly} />
          <MonthPicker value={month} onChange={setMonth} />
          <MonthCost slug={slug} ownOnly={ownOnly} month={month || undefined} />
          <GpuUsePanel slug={slug} month={month || undefined} />
          <WaitsPanel slug={slug} month={month || undefined} />
          <LedgerTable slug={slug} currency={query.data.currency} ownOnly={ownOnly} />
          {!ownOnly && <StatementsTable slug={slug} />}
        </>
      )}
      {dialog === 'budget' && query.isSuccess && <SetBudgetDialog slug={slug} view={query.data} onClose={() => setDialog(null)} />}
      {dialog === 'top-up' && query.isSuccess && <TopUpDialog slug={slug} currency={query.data.currency} onClose={() => setDialog(null)} />}
    </section>
  );
}
