import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { checkReadiness } from '../../api/cluster';
import type { ReadinessCheck, ReadinessReport } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { FormError } from '../../components/common/Form';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnPrimary, card } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { clusterKeys, readinessQuery } from './queries';
import { reasonKey, readinessTone } from './readinessText';

function CheckRow({ check }: { check: ReadinessCheck }) {
  const { t } = useTranslation();
  return (
    <li data-testid="readiness-check" data-name={check.name} data-state={check.state} className="flex flex-col gap-1 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge tone={readinessTone(check.state)} label={t(`readiness.state.${check.state}`)} value={check.state} />
        <span className="font-medium text-slate-800">{t(`readiness.checks.${check.name}`)}</span>
      </div>
      {check.reasons.length > 0 && (
        <ul className="list-disc pl-8 text-sm text-slate-700">
          {check.reasons.map((r, i) => {
            const { key, args, fallback } = reasonKey(r);
            return (
              <li key={`${r.code}-${i}`} data-testid="readiness-reason" data-code={r.code}>
                {t(key, { ...args, defaultValue: fallback, interpolation: { escapeValue: false } })}
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

function Report({ report }: { report: ReadinessReport }) {
  const { t, i18n } = useTranslation();
  return (
    <div data-testid="readiness-report" className={`${card} flex flex-col gap-2`}>
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <StatusBadge tone={readinessTone(report.state)} label={t(`readiness.overall.${report.state}`)} value={report.state} />
        <span data-testid="readiness-checked-at">{t('readiness.checkedAt', { at: formatDateTime(report.checkedAt, i18n.language) })}</span>
      </div>
      <ul className="divide-y divide-slate-100">
        {report.checks.map((c) => (
          <CheckRow key={c.name} check={c} />
        ))}
      </ul>
    </div>
  );
}

/** The cluster's readiness report: whether it has what Crater needs, each shortfall named; checked again on request. */
export function ReadinessPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery(readinessQuery());
  const check = useMutation({
    mutationFn: checkReadiness,
    onSuccess: (report) => queryClient.setQueryData(clusterKeys.readiness(), { report }),
  });
  const button = (
    <button
      type="button"
      data-testid="readiness-check-now"
      className={btnPrimary}
      disabled={check.isPending}
      onClick={() => check.mutate()}
    >
      {check.isPending ? t('readiness.checking') : t('readiness.checkNow')}
    </button>
  );
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('readiness.title')} subtitle={t('readiness.subtitle')} />
      {query.isPending && <LoadingState label={t('readiness.loading')} />}
      {query.isError && <ErrorState title={t('readiness.loadError')} error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && (
        <>
          <div className="flex flex-wrap items-center gap-3">
            {button}
            {check.isError && <FormError error={check.error} />}
          </div>
          {query.data.report === null ? <EmptyState title={t('readiness.empty')} /> : <Report report={query.data.report} />}
        </>
      )}
    </div>
  );
}
