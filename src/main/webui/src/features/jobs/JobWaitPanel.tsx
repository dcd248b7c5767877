import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { resubmitJob } from '../../api/jobs';
import type { Approval, JobDetail, JobSummary, Suggestion, WaitEstimate, WaitPosition } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { FormError, SuccessNote } from '../../components/common/Form';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, btnSmall } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { useNow } from '../../lib/useNow';
import { RequestForm } from '../approvals/RequestForm';
import { useModelNames } from '../catalog/queries';
import { JobRequests, ReasonList } from './JobParts';
import { jobKeys, jobWaitQuery } from './queries';
import { formatReason } from './reasons';
import {
  aheadLabel,
  waitsForJobs,
  grantOf,
  isResubmitSuggestion,
  positionText,
  relativeText,
  suggestionLabel,
  suggestionText,
  type NameOf,
} from './waitText';

const enc = encodeURIComponent;
const subsection = 'mt-4 border-t border-amber-200 pt-4';
const subtitle = 'mb-1.5 font-semibold';

function Position({ position }: { position: WaitPosition }) {
  const { t } = useTranslation();
  const { ahead } = position;
  // The jobs ahead are the ones just before it, so the first of them stands this many places ahead.
  const firstPlace = position.inCluster - ahead.length;
  return (
    <div data-testid="job-wait-position" data-in-account={position.inAccount} data-in-cluster={position.inCluster} className={subsection}>
      <h3 className={subtitle}>{t('jobs.wait.positionTitle')}</h3>
      <p>{positionText(position, t)}</p>
      {ahead.length > 0 && (
        <>
          <p className="mt-3 mb-1 text-xs font-medium text-amber-800">{t('jobs.wait.aheadTitle', { count: ahead.length })}</p>
          <ol data-testid="job-wait-ahead" className="divide-y divide-amber-100 rounded-md bg-white/70 ring-1 ring-amber-200">
            {ahead.map((job, i) => {
              const hidden = job.id === null;
              return (
                <li
                  key={job.id ?? `hidden-${i}`}
                  data-testid="job-wait-ahead-row"
                  data-hidden={hidden ? 'true' : 'false'}
                  data-same-account={job.sameAccount ? 'true' : 'false'}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5 text-xs text-slate-700"
                >
                  <span className="w-8 tabular-nums text-slate-400">#{firstPlace + i}</span>
                  {job.id === null ? (
                    <span className="italic text-slate-500">{aheadLabel(job, t)}</span>
                  ) : (
                    <Link to={`/jobs/${enc(job.id)}`} className="font-medium text-indigo-700 hover:underline">
                      {aheadLabel(job, t)}
                    </Link>
                  )}
                  {job.owner && <span className="text-slate-500">{t('jobs.wait.by', { owner: job.owner })}</span>}
                  {job.sameAccount && (
                    <span className="rounded bg-amber-100 px-1.5 py-0.5 text-amber-800">{t('jobs.wait.sameAccount')}</span>
                  )}
                  {job.priority !== 'normal' && (
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-600">
                      {t('jobs.wait.priority', { priority: t(`jobs.priority.${job.priority}`) })}
                    </span>
                  )}
                  <span className="ml-auto">
                    <JobRequests requests={job.requests} />
                  </span>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </div>
  );
}

function Estimate({ estimate, nameOf }: { estimate: WaitEstimate; nameOf: NameOf }) {
  const { t, i18n } = useTranslation();
  // The relative start time ("in 1 h 59 min") is brought up to date between refreshes.
  const now = useNow();
  const { startBy, unknown } = estimate;
  const known = unknown === null && startBy !== null;
  return (
    <div data-testid="job-wait-estimate" data-known={known ? 'true' : 'false'} className={subsection}>
      <h3 className={subtitle}>{t('jobs.wait.estimateTitle')}</h3>
      {known ? (
        <>
          <p>
            <span className="font-medium" data-testid="job-wait-start-by" data-at={startBy}>
              {t('jobs.wait.startBy', { time: formatDateTime(startBy, i18n.language) })}
            </span>{' '}
            <span data-testid="job-wait-relative">({relativeText(startBy, now, t)})</span>
          </p>
          {estimate.waitsFor.length > 0 ? (
            <>
              <p className="mt-1 text-xs text-amber-800">{t('jobs.wait.startByHint')}</p>
              <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1">
                <span>{t('jobs.wait.waitsFor')}</span>
                {waitsForJobs(estimate).map((job, i) =>
                  job.id ? (
                    <Link
                      key={job.id}
                      to={`/jobs/${enc(job.id)}`}
                      data-testid="job-wait-waits-for"
                      data-id={job.id}
                      className="text-xs font-medium text-indigo-700 hover:underline"
                    >
                      {job.name ?? job.id}
                    </Link>
                  ) : (
                    <span key={`hidden-${i}`} data-testid="job-wait-waits-for" className="text-xs italic text-slate-500">
                      {t('jobs.wait.hiddenJob')}
                    </span>
                  ),
                )}
              </p>
            </>
          ) : (
            <p className="mt-1 text-xs text-amber-800">{t('jobs.wait.nextRound')}</p>
          )}
        </>
      ) : (
        <p data-testid="job-wait-unknown" data-code={unknown?.code}>
          {t('jobs.wait.noEstimate')}
          {unknown && (
            <>
              {' '}
              <span data-testid="job-wait-unknown-reason" title={unknown.message}>
                {formatReason(unknown, t, now, nameOf)}
              </span>
            </>
          )}
        </p>
      )}
    </div>
  );
}

/** Confirms resubmitting the job with the suggested change, replacing it; then opens the new job. */
function FollowDialog({
  job,
  suggestion,
  label,
  description,
  onClose,
}: {
  job: JobSummary;
  suggestion: Suggestion;
  label: string;
  description: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: () => resubmitJob(job.id, { changes: suggestion.change, replace: true }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
      // This job was stopped in the same step.
      void queryClient.invalidateQueries({ queryKey: jobKeys.detail(job.id) });
      onClose();
      void navigate(`/jobs/${enc(created.id)}`);
    },
  });
  return (
    <Dialog title={t('jobs.wait.followTitle', { label })} onClose={onClose} testId="job-wait-follow-dialog">
      <div className="flex flex-col gap-4">
        <p className="text-sm text-slate-700">{description}</p>
        <p className="text-sm text-slate-600">{t('jobs.wait.followBody', { account: job.account, name: job.name })}</p>
        {mutation.isError && <FormError error={mutation.error} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            data-testid="job-wait-follow-confirm"
            className={btnPrimary}
            disabled={mutation.isPending}
            onClick={() => mutation.mutate()}
          >
            {mutation.isPending ? t('jobs.wait.following') : t('jobs.wait.followConfirm')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function Suggestions({
  detail,
  suggestions,
  nameOf,
  onFollow,
}: {
  detail: JobDetail;
  suggestions: Suggestion[];
  nameOf: NameOf;
  onFollow: (suggestion: Suggestion) => void;
}) {
  const { t } = useTranslation();
  const { permissions } = detail;
  // Following a change resubmits the job and stops this one.
  const mayReplace = permissions.resubmit && permissions.stop;
  return (
    <div data-testid="job-wait-suggestions" className={subsection}>
      <h3 className={subtitle}>{t('jobs.wait.suggestionsTitle')}</h3>
      <ul className="flex flex-col gap-2">
        {suggestions.map((s, i) => {
          const canFollow = isResubmitSuggestion(s) ? mayReplace : grantOf(s) !== null;
          return (
            <li
              key={`${s.code}-${i}`}
              data-testid="job-wait-suggestion"
              data-code={s.code}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-white/70 px-3 py-2 ring-1 ring-amber-200"
            >
              <span title={s.message}>{suggestionText(s, t, nameOf)}</span>
              {canFollow && (
                <button type="button" data-testid="job-wait-follow" className={btnSmall} onClick={() => onFollow(s)}>
                  {suggestionLabel(s, t, nameOf)}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * Why a job that has not started waits: the reasons, its place in line and the jobs ahead, when it should
 * start, and what would make it start now (with the means to do it). Refreshes while the job waits.
 */
export function JobWaitPanel({ detail }: { detail: JobDetail }) {
  const { t } = useTranslation();
  const nameOf = useModelNames();
  const { job } = detail;
  const query = useQuery(jobWaitQuery(job.id));
  // The suggestion being followed; its dialog stays open across refreshes that drop the suggestion.
  const [following, setFollowing] = useState<Suggestion | null>(null);
  const [granted, setGranted] = useState<Approval | null>(null);
  const grant = following !== null && following.code === 'RequestGrant' ? grantOf(following) : null;
  const close = () => setFollowing(null);
  const wait = query.data;
  // Until the answer comes, the reasons the job carries (admission's, while it is queued).
  const reasons = wait?.reasons ?? job.reasons;
  const queued = job.state === 'Queued';

  return (
    <>
      <section
        data-testid="job-waiting"
        data-state={job.state}
        className="rounded-xl border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900"
      >
        <h2 className="mb-2 font-semibold">{queued ? t('jobs.waiting.title') : t('jobs.wait.startingTitle')}</h2>
        {reasons.length > 0 ? (
          <ReasonList reasons={reasons} />
        ) : (
          wait && <p>{queued ? t('jobs.waiting.noReason') : t('jobs.wait.noClusterReason')}</p>
        )}
        {query.isPending && <LoadingState label={t('jobs.wait.loading')} />}
        {query.isError && wait === undefined && (
          <div className="mt-3">
            <ErrorState title={t('jobs.wait.loadError')} error={query.error} onRetry={() => void query.refetch()} />
          </div>
        )}
        {wait?.position && <Position position={wait.position} />}
        {wait?.estimate && <Estimate estimate={wait.estimate} nameOf={nameOf} />}
        {wait && wait.suggestions.length > 0 && (
          <Suggestions detail={detail} suggestions={wait.suggestions} nameOf={nameOf} onFollow={setFollowing} />
        )}
        {granted && (
          <div className="mt-4">
            <SuccessNote testId="job-wait-grant-sent">
              {t('request.created', { kind: t('approvals.kinds.quota-grant') })}{' '}
              <Link to="/approvals" className="font-medium underline">
                {t('request.viewRequests')}
              </Link>
            </SuccessNote>
          </div>
        )}
      </section>
      {/* Outside the panel so that they do not take on its colours. */}
      {following !== null && isResubmitSuggestion(following) && (
        <FollowDialog
          job={job}
          suggestion={following}
          label={suggestionLabel(following, t, nameOf)}
          description={suggestionText(following, t, nameOf)}
          onClose={close}
        />
      )}
      {grant !== null && (
        <Dialog title={t('jobs.wait.grantTitle', { account: job.account })} onClose={close} testId="job-wait-grant-dialog">
          <RequestForm
            kind="quota-grant"
            account={job.account}
            initialResource={grant.resource}
            initialAmount={grant.amount}
            onCancel={close}
            onCreated={(approval) => {
              close();
              setGranted(approval);
            }}
          />
        </Dialog>
      )}
    </>
  );
}
