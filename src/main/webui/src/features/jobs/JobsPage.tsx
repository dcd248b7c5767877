import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StreamStatus } from '../../api/sse';
import type { JobKind, JobState, JobSummary } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { LoadMore } from '../../components/common/Form';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, tableWrap, td, th } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { useNow } from '../../lib/useNow';
import { useCurrentAccount } from '../me/useCurrentAccount';
import { useModelNames } from '../catalog/queries';
import { StarterTemplates } from '../onboarding/StarterTemplates';
import { BorrowingTag, JobRequests } from './JobParts';
import { JobStateBadge } from './JobStateBadge';
import { JOB_KINDS } from './jobForm';
import { JOB_STATES, isFinished } from './jobState';
import { jobListQuery, type JobListFilter } from './queries';
import { formatReason } from './reasons';
import { useJobEvents } from './useJobEvents';

function JobRow({ job, showAccount }: { job: JobSummary; showAccount: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const firstReason = job.state === 'Queued' ? job.reasons[0] : undefined;
  const nameOf = useModelNames();
  return (
    <tr data-testid="job-row" data-id={job.id} data-state={job.state} className="border-t border-slate-100 align-top hover:bg-slate-50">
      <td className={td}>
        {/* A long name (up to 100 characters, maybe without a space) is cut on screen, never in the data. */}
        <Link
          to={`/jobs/${encodeURIComponent(job.id)}`}
          title={job.name}
          className="block max-w-xs truncate font-medium text-indigo-700 hover:underline"
        >
          {job.name}
        </Link>
        <span className="block font-mono text-xs text-slate-400">{job.id}</span>
      </td>
      <td className={td}>
        <span className="flex flex-wrap items-center gap-1.5">
          <JobStateBadge state={job.state} />
          {/* Borrowing describes what a job holds; a finished job holds nothing. */}
          {job.borrowing && !isFinished(job.state) && <BorrowingTag />}
        </span>
        {firstReason && (
          <span className="mt-1 block max-w-72 text-xs text-amber-800" title={firstReason.message}>
            {formatReason(firstReason, t, now, nameOf)}
          </span>
        )}
      </td>
      <td className={td}>{t(`jobs.kinds.${job.kind}`, { defaultValue: job.kind })}</td>
      {showAccount && (
        <td className={td} data-testid="job-account">
          {job.account}
        </td>
      )}
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

/** How the list stays current: pushed by the event stream, or polled while the stream is down. */
function LiveStatus({ status, polling }: { status: StreamStatus; polling: boolean }) {
  const { t } = useTranslation();
  const text = status === 'live' ? t('jobs.live.live') : polling ? t('jobs.live.polling') : t(`jobs.live.${status}`);
  return (
    <p data-testid="jobs-live" data-status={status} className="inline-flex items-center gap-1.5 text-xs text-slate-500">
      <span
        aria-hidden="true"
        className={`h-2 w-2 rounded-full ${status === 'live' ? 'bg-emerald-500' : status === 'reconnecting' ? 'animate-pulse bg-amber-500' : 'bg-slate-400'}`}
      />
      {text}
    </p>
  );
}

export function JobList({
  filter,
  stream,
  showAccount = false,
}: {
  filter: JobListFilter;
  stream: StreamStatus;
  /** An account column, for lists across accounts. */
  showAccount?: boolean;
}) {
  const { t } = useTranslation();
  // Poll only while the event stream is not live.
  const query = useInfiniteQuery(jobListQuery(filter, stream !== 'live'));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const active = items.some((j) => !isFinished(j.state));
  const filtered = filter.state !== '' || filter.kind !== '' || filter.mine || !!filter.owner || !!filter.model;
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState title={t('jobs.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  const live = <LiveStatus status={stream} polling={stream !== 'live' && active} />;
  if (items.length === 0) {
    return (
      <div className="flex flex-col gap-3">
        {live}
        <EmptyState
          title={
            filter.state && !filter.kind && !filter.mine && !filter.owner && !filter.model
              ? t('jobs.emptyState', { state: t(`jobs.state.${filter.state}`) })
              : filtered
                ? t('jobs.emptyFiltered')
                : t('jobs.empty')
          }
        >
          {!filtered && (
            <>
              <p className="mt-2">
                <Link to="/jobs/new" className="font-medium text-indigo-700 hover:underline">
                  {t('jobs.emptyHint')}
                </Link>
              </p>
              <StarterTemplates />
            </>
          )}
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {live}
      <div className={tableWrap}>
        <table className="min-w-full" data-testid="job-table">
          <thead className="bg-slate-50">
            <tr>
              <th className={th}>{t('jobs.name')}</th>
              <th className={th}>{t('jobs.stateColumn')}</th>
              <th className={th}>{t('jobs.kind')}</th>
              {showAccount && <th className={th}>{t('adminJobs.account')}</th>}
              <th className={th}>{t('jobs.owner')}</th>
              <th className={th}>{t('jobs.requests')}</th>
              <th className={th}>{t('jobs.created')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((j) => (
              <JobRow key={j.id} job={j} showAccount={showAccount} />
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />
    </div>
  );
}

export const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm';

export function JobsPage() {
  const { t } = useTranslation();
  const { account } = useCurrentAccount();
  const [state, setState] = useState<JobState | ''>('');
  const [kind, setKind] = useState<JobKind | ''>('');
  const [mine, setMine] = useState(false);
  const stream = useJobEvents('jobs');
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader title={t('jobs.title')} subtitle={account ? t('jobs.subtitle', { account }) : t('jobs.subtitleNoAccount')} />
        <Link to="/jobs/new" data-testid="job-new" className={btnPrimary}>
          {t('jobs.new')}
        </Link>
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <label className="inline-flex items-center gap-2 text-sm text-slate-600">
          {t('jobs.filterState')}
          <select
            data-testid="jobs-state"
            className={selectClass}
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
        <label className="inline-flex items-center gap-2 text-sm text-slate-600">
          {t('jobs.filterKind')}
          <select data-testid="jobs-kind" className={selectClass} value={kind} onChange={(e) => setKind(e.target.value as JobKind | '')}>
            <option value="">{t('jobs.allKinds')}</option>
            {JOB_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`jobs.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-flex items-center gap-2 text-sm text-slate-600">
          <input type="checkbox" data-testid="jobs-mine" checked={mine} onChange={(e) => setMine(e.target.checked)} />
          {t('jobs.mineOnly')}
        </label>
      </div>
      {account === null ? (
        <LoadingState />
      ) : (
        <JobList key={`${account}:${state}:${kind}:${mine}`} filter={{ account, state, kind, mine }} stream={stream} />
      )}
    </div>
  );
}
