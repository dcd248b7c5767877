import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { statementCsvUrl } from '../../api/accounting';
import type { StatementSummary } from '../../api/types';
import { type Column, DataTable } from '../../components/common/DataTable';
import { statementsQuery } from './queries';

/**
 * The account's monthly statements for its admins: each closed month's opening and closing balance, what was
 * charged and issued, and its lines per member and resource as CSV.
 */
export function StatementsTable({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const query = useQuery(statementsQuery(slug));
  const money = (s: StatementSummary, amount: string) => `${amount} ${s.currency}`;
  const columns: Column<StatementSummary>[] = [
    { id: 'period', header: t('accounting.statements.period'), cell: (s) => s.period, className: 'tabular-nums' },
    {
      id: 'opening',
      header: t('accounting.statements.opening'),
      cell: (s) => money(s, s.opening),
      className: 'text-right tabular-nums',
    },
    {
      id: 'charged',
      header: t('accounting.statements.charged'),
      cell: (s) => money(s, s.charged),
      className: 'text-right tabular-nums',
      testId: 'statement-charged',
    },
    {
      id: 'issued',
      header: t('accounting.statements.issued'),
      cell: (s) => money(s, s.issued),
      className: 'text-right tabular-nums',
    },
    {
      id: 'closing',
      header: t('accounting.statements.closing'),
      cell: (s) => money(s, s.closing),
      className: 'text-right tabular-nums',
      testId: 'statement-closing',
    },
    {
      id: 'csv',
      header: t('accounting.statements.lines'),
      cell: (s) => (
        <a href={statementCsvUrl(slug, s.period)} download className="text-indigo-700 hover:underline" data-testid="statement-csv">
          {t('accounting.statements.csv')}
        </a>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-2" data-testid="statements">
      <h3 className="text-sm font-semibold text-slate-800">{t('accounting.statements.title')}</h3>
      <p className="text-xs text-slate-500">{t('accounting.statements.hint')}</p>
      <DataTable
        query={query}
        rows={query.data?.items ?? []}
        columns={columns}
        rowKey={(s) => s.period}
        rowProps={(s) => ({ 'data-testid': 'statement-row', 'data-period': s.period })}
        empty={{ title: t('accounting.statements.empty') }}
        errorTitle={t('accounting.statements.loadError')}
        variant="plain"
      />
    </div>
  );
}
