import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { JobState, JobSummary } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { LoadMore } from '../../components/common/Form';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, tableWrap, td, th } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { useCurrentAccount } from '../me/useCurrentAccount';
import { BorrowingTag, JobRequests } from './JobParts';
import { JobStateBadge } from './JobStateBadge';
import { JOB_STATES, isFinished } from './jobState';
import { jobListQuery } from './queries';
import { formatReason } from './reasons';

function JobRow({ job }: { job: JobSummary }) {
  const { t, i18n } = useTranslation();
  const firstReason = job.state === 'Queued' ? job.reasons[0] : undefined;
  return (
    <tr data-testid="job-row" data-id={job.id} data-state={job.state} className="border-t border-slate-100 align-top hover:bg-slate-50">
      <td className={td}>
        <Link to={`/jobs/${encodeURIComponent(job.id)}`} className="font-medium text-indigo-700 hover:underline">
          {job.name}
        </Link>
        <span className="block font-mono text-xs text-slate-400">{job.id}</span>
      </td>
      <td className={td}>
        <span className="flex flex-wrap items-center gap-1.5">
          <JobStateBadge state={job.state} />
          {job.borrowing && <BorrowingTag />}
        </span>
        {firstReason && (
          <span className="mt-1 block max-w-72 text-xs text-amber-800" title={firstReason.message}>
            {formatReason(firstReason, t)}
          </span>
        )}
      </td>
      <td className={td}>{t(`jobs.kinds.${job.kind}`, { defaultValue: job.kind })}</td>
      <td className={td}>{job.owner}</td>
      <td className={td}>
        <JobRequests requests={job.requests} />
      </td>
      <td className={`${td} whitespace-nowrap`}>
        <span className="block">{formatDateTime(job.createdAt, i18n.language)}</span>
        <span className="block text-xs text-slate-500">
          {job.startedAt ? t('jobs.startedAt', { time: formatDateTime(job.startedAt, i18n.language) }) : t('jobs.notStarted')}
        </span>
      </td>
    </tr>
  );
}

function JobList({ account, state }: { account: string; state: JobState | '' }) {
  const { t } = useTranslation();
  const query = useInfiniteQuery(jobListQuery(account, state));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const live = items.some((j) => !isFinished(j.state));
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState title={t('jobs.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  if (items.length === 0) {
    return (
      <EmptyState title={state ? t('jobs.emptyState', { state: t(`jobs.state.${state}`) }) : t('jobs.empty')}>
        {!state && (
          <p className="mt-2">
            <Link to="/jobs/new" className="font-medium text-indigo-700 hover:underline">
              {t('jobs.emptyHint')}
            </Link>
          </p>
        )}
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {live && (
        <p data-testid="jobs-live" className="text-xs text-slate-500">
          {t('jobs.autoRefresh')}
        </p>
      )}
      <div className={tableWrap}>
        <table className="min-w-full" data-testid="job-table">
          <thead className="bg-slate-50">
            <tr>
              <th className={th}>{t('jobs.name')}</th>
              <th className={th}>{t('jobs.stateColumn')}</th>
              <th className={th}>{t('jobs.kind')}</th>
              <th className={th}>{t('jobs.owner')}</th>
              <th className={th}>{t('jobs.requests')}</th>
              <th className={th}>{t('jobs.created')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((j) => (
              <JobRow key={j.id} job={j} />
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />
    </div>
  );
}

export function JobsPage() {
  const { t } = useTranslation();
  const { account } = useCurrentAccount();
  const [state, setState] = useState<JobState | ''>('');
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader
          title={t('jobs.title')}
          subtitle={account ? t('jobs.subtitle', { account }) : t('jobs.subtitleNoAccount')}
        />
        <Link to="/jobs/new" data-testid="job-new" className={btnPrimary}>
          {t('jobs.new')}
        </Link>
      </div>
      <label className="inline-flex items-center gap-2 text-sm text-slate-600">
        {t('jobs.filterState')}
        <select
          data-testid="jobs-state"
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          value={state}
          onChange={(e) => setState(e.target.value as JobState | '')}
        >
          <option value="">{t('jobs.allStates')}</option>
          {JOB_STATES.map((s) => (
            <option key={s} value={s}>
              {t(`jobs.state.${s}`)}
            </option>
          ))}
        </select>
      </label>
      {account === null ? <LoadingState /> : <JobList key={`${account}:${state}`} account={account} state={state} />}
    </div>
  );
}
