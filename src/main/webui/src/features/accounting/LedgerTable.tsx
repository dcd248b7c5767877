import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LedgerEntry } from '../../api/types';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { tableWrap, td, th } from '../../components/common/ui';
import { formatSignedMoney } from '../../lib/units';
import { formatDateTime } from '../../lib/time';
import { LEDGER_LIMIT, ledgerQuery } from './queries';

function signed(micros: number): string {
  return micros > 0 ? `+${formatSignedMoney(micros)}` : formatSignedMoney(micros);
}

function EntryRow({ entry, language }: { entry: LedgerEntry; language: string }) {
  const { t } = useTranslation();
  return (
    <tr className="border-t border-slate-100" data-testid="ledger-row" data-kind={entry.kind}>
      <td className={td}>{t(`accounting.ledger.kinds.${entry.kind}`, { defaultValue: entry.kind })}</td>
      <td
        className={`${td} text-right tabular-nums ${entry.amountMicros < 0 ? 'text-rose-700' : 'text-emerald-700'}`}
        data-testid="ledger-amount"
      >
        {signed(entry.amountMicros)}
      </td>
      <td className={`${td} text-right tabular-nums ${entry.balanceAfterMicros < 0 ? 'text-rose-700' : ''}`}>
        {formatSignedMoney(entry.balanceAfterMicros)}
      </td>
      <td className={td}>
        {entry.job ? (
          <Link to={`/jobs/${encodeURIComponent(entry.job)}`} className="font-mono text-indigo-700 hover:underline">
            {entry.job}
          </Link>
        ) : (
          '—'
        )}
      </td>
      <td className={td}>{entry.user ?? '—'}</td>
      <td className={`${td} whitespace-nowrap text-xs`}>
        {entry.windowStart && entry.windowEnd
          ? t('accounting.ledger.windowRange', {
              from: formatDateTime(entry.windowStart, language),
              to: formatDateTime(entry.windowEnd, language),
            })
          : '—'}
      </td>
      <td className={td}>{entry.note ?? '—'}</td>
      <td className={`${td} whitespace-nowrap`}>{formatDateTime(entry.at, language)}</td>
    </tr>
  );
}

/** The account's newest ledger entries; a member gets only their own jobs' entries from the server. */
export function LedgerTable({ slug, currency, ownOnly }: { slug: string; currency: string; ownOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(ledgerQuery(slug));
  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError)
    body = <ErrorState title={t('accounting.ledger.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.items.length === 0) body = <EmptyState title={t('accounting.ledger.empty')} />;
  else
    body = (
      <div className={tableWrap}>
        <table className="min-w-full" data-testid="ledger-table">
          <thead className="bg-slate-50">
            <tr>
              <th className={th}>{t('accounting.ledger.kind')}</th>
              <th className={`${th} text-right`}>{t('accounting.ledger.amount', { currency })}</th>
              <th className={`${th} text-right`}>{t('accounting.ledger.balanceAfter', { currency })}</th>
              <th className={th}>{t('accounting.ledger.job')}</th>
              <th className={th}>{t('accounting.ledger.user')}</th>
              <th className={th}>{t('accounting.ledger.window')}</th>
              <th className={th}>{t('accounting.ledger.note')}</th>
              <th className={th}>{t('accounting.ledger.at')}</th>
            </tr>
          </thead>
          <tbody>
            {query.data.items.map((e) => (
              <EntryRow key={e.id} entry={e} language={i18n.language} />
            ))}
          </tbody>
        </table>
      </div>
    );
  return (
    <div className="flex flex-col gap-2" data-testid="ledger">
      <h3 className="text-sm font-semibold text-slate-800">{t('accounting.ledger.title', { limit: LEDGER_LIMIT })}</h3>
      {ownOnly && <p className="text-xs text-slate-500">{t('accounting.ledger.ownOnly')}</p>}
      {body}
    </div>
  );
}
