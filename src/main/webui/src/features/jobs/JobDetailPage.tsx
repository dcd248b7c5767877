import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/errors';
import { stopJob } from '../../api/jobs';
import type { JobDetail, JobSummary } from '../../api/types';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageHeader } from '../../app/PageHeader';
import { Dialog } from '../../components/common/Dialog';
import { FormError } from '../../components/common/Form';
import { StatusBadge } from '../../components/common/StatusBadge';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnDanger, btnSecondary, card } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { BorrowingTag, JobRequests, ReasonList } from './JobParts';
import { JobStateBadge } from './JobStateBadge';
import { isFinished, jobStateLabelKey, jobStateTone } from './jobState';
import { jobKeys, jobQuery } from './queries';

function stopErrorMessage(error: unknown, t: (k: string) => string): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.code === 'JobFinished') return t('jobs.stop.finished');
  if (error.code === 'NotJobOwner') return t('jobs.stop.notOwner');
  return undefined;
}

function StopDialog({ job, onClose }: { job: JobSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => stopJob(job.id),
    onSuccess: (updated) => {
      queryClient.setQueryData<JobDetail>(jobKeys.detail(job.id), (old) => (old ? { ...old, job: updated } : old));
      void queryClient.invalidateQueries({ queryKey: jobKeys.all });
      onClose();
    },
    onError: (error) => {
      // Finished meanwhile: show the real state.
      if (isApiError(error) && error.code === 'JobFinished') void queryClient.invalidateQueries({ queryKey: jobKeys.detail(job.id) });
    },
  });
  return (
    <Dialog title={t('jobs.stop.title', { name: job.name })} onClose={onClose} testId="job-stop-dialog">
      <div className="flex flex-col gap-4">
        <p className="text-sm text-slate-600">{t('jobs.stop.body')}</p>
        {mutation.isError && <FormError error={mutation.error} message={stopErrorMessage(mutation.error, t)} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            data-testid="job-stop-confirm"
            className={`${btnDanger} bg-rose-600 text-white hover:bg-rose-500`}
            disabled={mutation.isPending}
            onClick={() => mutation.mutate()}
          >
            {mutation.isPending ? t('jobs.stop.stopping') : t('jobs.stop.confirm')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function Meta({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-slate-400">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

function JobView({ detail }: { detail: JobDetail }) {
  const { t, i18n } = useTranslation();
  const [stopping, setStopping] = useState(false);
  const { job } = detail;
  const finished = isFinished(job.state);
  const label = t(jobStateLabelKey(job.state));
  const time = (iso: string | null) => formatDateTime(iso, i18n.language);

  return (
    <div className="flex flex-col gap-6" data-testid="job-detail" data-id={job.id} data-state={job.state}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center gap-3">
            <PageHeader title={job.name} />
            <span data-testid="job-state" data-state={job.state}>
              <StatusBadge tone={jobStateTone(job.state)} label={job.state} value={job.state} />
            </span>
            {label !== job.state && <span className="text-sm text-slate-500">{label}</span>}
            {job.borrowing && <BorrowingTag />}
          </div>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
            <Meta label={t('jobs.id')} testId="job-id">
              <span className="font-mono">{job.id}</span>
            </Meta>
            <Meta label={t('jobs.kind')}>{t(`jobs.kinds.${job.kind}`, { defaultValue: job.kind })}</Meta>
            <Meta label={t('jobs.owner')} testId="job-owner">
              {job.owner}
            </Meta>
            <Meta label={t('jobs.account')} testId="job-account">
              <span className="font-mono">{job.account}</span>
            </Meta>
            <Meta label={t('jobs.created')}>{time(job.createdAt)}</Meta>
            <Meta label={t('jobs.started')}>{time(job.startedAt)}</Meta>
            <Meta label={t('jobs.finished')}>{time(job.finishedAt)}</Meta>
          </dl>
        </div>
        <div className="flex gap-2">
          <Link to="/jobs" className={btnSecondary}>
            {t('jobs.back')}
          </Link>
          {!finished && job.state !== 'Stopping' && (
            <button type="button" data-testid="job-stop" className={btnDanger} onClick={() => setStopping(true)}>
              {t('jobs.stop.open')}
            </button>
          )}
        </div>
      </div>

      {(detail.stateReason || detail.stateMessage) && (
        <p data-testid="job-state-message" className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
          {detail.stateReason && <span className="font-medium">{detail.stateReason}</span>}
          {detail.stateReason && detail.stateMessage && ': '}
          {detail.stateMessage}
        </p>
      )}

      {job.state === 'Queued' && (
        <section data-testid="job-waiting" className="rounded-xl border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900">
          <h2 className="mb-2 font-semibold">{t('jobs.waiting.title')}</h2>
          {job.reasons.length > 0 ? <ReasonList reasons={job.reasons} /> : <p>{t('jobs.waiting.noReason')}</p>}
        </section>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <section className={card}>
          <h2 className="mb-3 text-sm font-semibold text-slate-900">{t('jobs.requests')}</h2>
          <JobRequests requests={job.requests} />
          {job.borrowing && <p className="mt-2 text-xs text-violet-700">{t('jobs.borrowingHint')}</p>}
        </section>
        <section className={card}>
          <h2 className="mb-3 text-sm font-semibold text-slate-900">{t('jobs.history')}</h2>
          {detail.history.length === 0 ? (
            <p className="text-sm text-slate-500">{t('jobs.noHistory')}</p>
          ) : (
            <ol data-testid="job-history" className="relative flex flex-col gap-3 border-l border-slate-200 pl-4">
              {detail.history.map((h, i) => (
                <li key={`${h.at}-${i}`} data-testid="job-history-entry" data-to={h.to} className="text-sm">
                  <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border-2 border-white bg-slate-300" aria-hidden="true" />
                  <span className="flex flex-wrap items-center gap-2">
                    {h.from && (
                      <>
                        <JobStateBadge state={h.from} />
                        <span aria-hidden="true" className="text-slate-400">
                          →
                        </span>
                      </>
                    )}
                    <JobStateBadge state={h.to} />
                    <span className="text-xs text-slate-500">{time(h.at)}</span>
                  </span>
                  {(h.reason || h.message) && (
                    <span className="mt-0.5 block text-xs text-slate-600">
                      {h.reason && <span className="font-medium">{h.reason}</span>}
                      {h.reason && h.message && ': '}
                      {h.message}
                    </span>
                  )}
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>

      <section className={card}>
        <h2 className="mb-3 text-sm font-semibold text-slate-900">{t('jobs.spec')}</h2>
        <pre data-testid="job-spec" className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
          {JSON.stringify(detail.spec, null, 2)}
        </pre>
      </section>

      {stopping && <StopDialog job={job} onClose={() => setStopping(false)} />}
    </div>
  );
}

export function JobDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const query = useQuery(jobQuery(id));
  // A failed poll keeps showing the last answer.
  if (query.data) return <JobView detail={query.data} />;
  if (query.isPending) return <LoadingState />;
  if (isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
  return <ErrorState title={t('jobs.loadOneError')} error={query.error} onRetry={() => void query.refetch()} />;
}
