import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { tableWrap, td, th } from '../../components/common/ui';
import { formatDuration } from '../../lib/units';
import { usageQuery } from './queries';
import { monthLabel, monthSpan } from './reportMonth';
import { waitBars } from './waits';

/**
 * How long this month's admitted jobs waited in the queue, per member: how many were admitted, the mean and the 90th
 * percentile from submission to admission, with a bar of both against the longest wait. A member's report holds only
 * their own jobs, so they see their own line.
 */
export function WaitsPanel({ slug, month }: { slug: string; month?: string }) {
  const { t, i18n } = useTranslation();
  const named = month ? { month: monthLabel(month, i18n.language) } : null;
  const query = useQuery(usageQuery({ account: slug, by: 'user', ...(month ? monthSpan(month) : {}) }));
  const bars = query.isSuccess ? waitBars(query.data.waits) : [];
  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError)
    body = <ErrorState title={t('accounting.waits.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  else
    body =
      bars.length === 0 ? (
        <EmptyState title={named ? t('accounting.waits.emptyIn', named) : t('accounting.waits.empty')} />
      ) : (
        <div className={tableWrap}>
          <table className="min-w-full" data-testid="waits-table">
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('accounting.waits.member')}</th>
                <th className={`${th} text-right`}>{t('accounting.waits.jobs')}</th>
                <th className={`${th} text-right`}>{t('accounting.waits.mean')}</th>
                <th className={`${th} text-right`}>{t('accounting.waits.p90')}</th>
                <th className={`${th} w-1/3`}>{t('accounting.waits.bar')}</th>
              </tr>
            </thead>
            <tbody>
              {bars.map((b) => (
                <tr key={b.key} className="border-t border-slate-100" data-testid="waits-row" data-member={b.key}>
                  <td className={td}>{b.key}</td>
                  <td className={`${td} text-right tabular-nums`}>{b.jobs}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatDuration(b.meanSeconds)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatDuration(b.p90Seconds)}</td>
                  <td className={td}>
                    <div
                      className="relative h-3 w-full overflow-hidden rounded bg-slate-100"
                      aria-hidden="true"
                      title={t('accounting.waits.barLabel', {
                        mean: formatDuration(b.meanSeconds),
                        p90: formatDuration(b.p90Seconds),
                      })}
                    >
                      <div className="absolute inset-y-0 left-0 bg-sky-200" style={{ width: `${b.p90Width}%` }} />
                      <div className="absolute inset-y-0 left-0 bg-sky-600" style={{ width: `${b.meanWidth}%` }} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  return (
    <div className="flex flex-col gap-2" data-testid="waits">
      <h3 className="text-sm font-semibold text-slate-800">{named ? t('accounting.waits.titleIn', named) : t('accounting.waits.title')}</h3>
      {body}
      {bars.length > 0 && <p className="text-xs text-slate-500">{t('accounting.waits.hint')}</p>}
    </div>
  );
}
