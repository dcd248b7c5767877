import { useContext, type ReactNode } from 'react';
import { JobMounts } from '../assets/JobMounts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/errors';
import type { JobDetail, NodeTargets } from '../../api/types';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageHeader } from '../../app/PageHeader';
import { StatusBadge } from '../../components/common/StatusBadge';
import { ErrorState, LoadingState } from '../../components/common/States';
import { card } from '../../components/common/ui';
import { workingDirRoute } from '../../lib/filePaths';
import { formatDateTime } from '../../lib/time';
import { CurrentUserContext } from '../auth/session';
import { JobActions } from './JobActions';
import { JobConnect } from './JobConnect';
import { JobExits } from './JobExits';
import { JobGpuUtilisation } from './JobGpuUtilisation';
import { JobHistory } from './JobHistory';
import { JobIdleWarning } from './JobIdleWarning';
import { JobLogs } from './JobLogs';
import { JobManifests } from './JobManifests';
import { JobWaitPanel } from './JobWaitPanel';
import { BorrowingTag, JobRequests } from './JobParts';
import { JobEventsTable, JobPodsTable } from './JobPods';
import { isFinished, jobStateLabelKey, jobStateTone } from './jobState';
import { isWaiting, jobQuery } from './queries';
import { useJobEvents } from './useJobEvents';
import { holdsAccelerators } from './utilisationChart';

function Meta({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-slate-400">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** The nodes the job's spec names: only these, or never these (a resubmission away from a faulty node avoids it). */
function TargetNodes({ nodes }: { nodes: NodeTargets | undefined }) {
  const { t } = useTranslation();
  const use = nodes?.use ?? [];
  const avoid = nodes?.avoid ?? [];
  if (use.length === 0 && avoid.length === 0) return null;
  return (
    <Meta label={t('jobs.targetNodes')} testId="job-nodes">
      <span className="font-mono" data-mode={use.length > 0 ? 'use' : 'avoid'}>
        {use.length > 0 ? t('jobs.nodesUse', { nodes: use.join(', ') }) : t('jobs.nodesAvoid', { nodes: avoid.join(', ') })}
      </span>
    </Meta>
  );
}

/** Where the job came from: the template (and version) it was rendered from, the job it was copied from. */
function Origin({ detail }: { detail: JobDetail }) {
  const { t } = useTranslation();
  const { template, sourceJob } = detail;
  if (!template && !sourceJob) return null;
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
      {template && (
        <span data-testid="job-template" data-template-id={template.id} data-version={template.version}>
          {t('jobs.origin.template', { name: template.name, version: template.version })}
        </span>
      )}
      {sourceJob && (
        <span data-testid="job-source" data-source={sourceJob}>
          {t('jobs.origin.source')}{' '}
          <Link to={`/jobs/${encodeURIComponent(sourceJob)}`} className="font-mono text-indigo-700 hover:underline">
            {sourceJob}
          </Link>
        </span>
      )}
    </p>
  );
}

function JobView({ detail }: { detail: JobDetail }) {
  const { t, i18n } = useTranslation();
  const { job } = detail;
  const finished = isFinished(job.state);
  const label = t(jobStateLabelKey(job.state));
  const time = (iso: string | null) => formatDateTime(iso, i18n.language);
  // A job that never got pods (queued, rejected) has nothing to show about them.
  const hadPods = job.startedAt !== null || detail.pods.length > 0 || detail.exits.length > 0;
  const showPods = hadPods || (job.state !== 'Queued' && job.state !== 'Rejected');
  const running = job.state === 'Running';
  const gpus = running && holdsAccelerators(job.requests);
  const viewer = useContext(CurrentUserContext);
  const workingDir = detail.spec.workingDir;
  const filesRoute = workingDirRoute(workingDir, job, viewer?.username ?? null);

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
            {job.borrowing && !finished && <BorrowingTag />}
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
            {workingDir && (
              <Meta label={t('jobs.workingDir')} testId="job-working-dir">
                {filesRoute ? (
                  <Link to={filesRoute} title={t('files.openWorkingDir')} className="font-mono text-indigo-700 hover:underline">
                    {workingDir}
                  </Link>
                ) : (
                  <span className="font-mono">{workingDir}</span>
                )}
              </Meta>
            )}
            <TargetNodes nodes={detail.spec.nodes} />
          </dl>
          <Origin detail={detail} />
        </div>
        <JobActions detail={detail} />
      </div>

      {(detail.stateReason || detail.stateMessage) && (
        <p data-testid="job-state-message" className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
          {detail.stateReason && <span className="font-medium">{detail.stateReason}</span>}
          {detail.stateReason && detail.stateMessage && ': '}
          {detail.stateMessage}
        </p>
      )}

      {gpus && <JobIdleWarning detail={detail} />}

      {isWaiting(job.state) && <JobWaitPanel detail={detail} />}

      {running && <JobConnect jobId={job.id} />}

      {gpus && <JobGpuUtilisation jobId={job.id} />}

      {finished && hadPods && <JobExits exits={detail.exits} memoryLimit={detail.spec.resources.memory} state={job.state} />}

      <div className="grid gap-6 lg:grid-cols-2">
        <section className={card}>
          <h2 className="mb-3 text-sm font-semibold text-slate-900">{t('jobs.requests')}</h2>
          <JobRequests requests={job.requests} />
          {job.borrowing && <p className="mt-2 text-xs text-violet-700">{t('jobs.borrowingHint')}</p>}
        </section>
        <section className={card}>
          <h2 className="mb-3 text-sm font-semibold text-slate-900">{t('jobs.history')}</h2>
          <JobHistory history={detail.history} />
        </section>
      </div>

      <JobMounts mounts={detail.mounts} />
      {showPods && <JobPodsTable pods={detail.pods} finished={finished} />}
      {(showPods || detail.events.length > 0) && <JobEventsTable events={detail.events} />}
      {hadPods && <JobLogs detail={detail} />}

      <section className={card}>
        <h2 className="mb-3 text-sm font-semibold text-slate-900">{t('jobs.spec')}</h2>
        <pre
          data-testid="job-spec"
          className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
        >
          {JSON.stringify(detail.spec, (_key, value: unknown) => (value === null ? undefined : value), 2)}
        </pre>
      </section>

      <JobManifests jobId={job.id} />
    </div>
  );
}

export function JobDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const stream = useJobEvents(id ? `job:${id}` : null);
  const query = useQuery(jobQuery(id, stream === 'live'));
  // A failed poll keeps showing the last answer. Keyed by job so that going to another job (resubmit,
  // "cloned from") starts with fresh dialogs and log settings.
  if (query.data) return <JobView key={query.data.job.id} detail={query.data} />;
  if (query.isPending) return <LoadingState />;
  if (isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
  return <ErrorState title={t('jobs.loadOneError')} error={query.error} onRetry={() => void query.refetch()} />;
}
