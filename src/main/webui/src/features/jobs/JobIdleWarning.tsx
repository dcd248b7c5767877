import { useContext, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Approval, JobDetail } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { SuccessNote } from '../../components/common/Form';
import { btnPrimary } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { useNow } from '../../lib/useNow';
import { RequestForm } from '../approvals/RequestForm';
import { approvalListQuery } from '../approvals/queries';
import { CurrentUserContext } from '../auth/session';
import { extensionUntil, idleWarningOf, pendingExtensionOf } from './idleWarning';
import { jobGpuQuery, jobKeys } from './queries';
import { percentText } from './utilisationChart';
import { durationText, relativeText } from './waitText';

/** What became of the extension just asked for. */
function ExtensionSent({ approval }: { approval: Approval }) {
  const { t, i18n } = useTranslation();
  const granted = approval.state === 'approved';
  return (
    <SuccessNote testId="job-idle-extension-sent">
      <span data-state={approval.state}>
        {granted ? t('jobs.idle.granted', { time: formatDateTime(approval.until, i18n.language) }) : t('jobs.idle.sent')}
      </span>{' '}
      <Link to="/approvals" className="font-medium underline">
        {t('request.viewRequests')}
      </Link>
    </SuccessNote>
  );
}

/**
 * The warning that a running job's accelerators sit idle and it will be stopped, with the numbers, and for its
 * owner the means to ask for an extension (a job lock, created as the approvals page does) or the request
 * already waiting. Shares the utilisation query with the chart.
 */
export function JobIdleWarning({ detail }: { detail: JobDetail }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const queryClient = useQueryClient();
  const { job } = detail;
  const user = useContext(CurrentUserContext);
  const owner = user !== null && user.username === job.owner;
  const query = useQuery(jobGpuQuery(job.id));
  const decision = query.data?.decision ?? null;
  const warning = idleWarningOf(decision);
  const [asking, setAsking] = useState(false);
  const [sent, setSent] = useState<Approval | null>(null);
  const requests = useInfiniteQuery({ ...approvalListQuery('mine', 'pending'), enabled: owner && warning !== null && sent === null });
  const pending = pendingExtensionOf(requests.data?.pages.flatMap((p) => p.items) ?? [], job.id);
  const time = (iso: string | null) => formatDateTime(iso, i18n.language);

  if (sent !== null) return <ExtensionSent approval={sent} />;
  if (warning === null) {
    if (decision?.kind !== 'Exempt' || decision.lockUntil === null) return null;
    return (
      <p data-testid="job-idle-exempt" className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
        {t('jobs.idle.exempt', { time: time(decision.lockUntil) })}
      </p>
    );
  }

  return (
    <>
      <section
        data-testid="job-idle-warning"
        data-stage={warning.stage}
        role="alert"
        className="flex flex-col gap-2 rounded-xl border border-rose-200 bg-rose-50 p-5 text-sm text-rose-900"
      >
        <h2 className="font-semibold">{t('jobs.idle.title')}</h2>
        <p data-testid="job-idle-numbers">
          {t('jobs.idle.numbers', {
            peak: percentText(warning.peakPercent),
            mean: percentText(warning.meanPercent),
            window: durationText(warning.windowSeconds, t),
            threshold: percentText(warning.thresholdPercent),
          })}
        </p>
        <p data-testid="job-idle-stop" data-at={warning.stopAt ?? ''} className="font-medium">
          {warning.stopAt === null
            ? t('jobs.idle.stopNext')
            : t('jobs.idle.stopAt', { time: time(warning.stopAt), relative: relativeText(warning.stopAt, now, t) })}
        </p>
        <p>{t('jobs.idle.hint')}</p>
        {owner && (
          <div className="mt-1">
            {pending !== null ? (
              <p data-testid="job-idle-pending">
                {t('jobs.idle.pending')}{' '}
                <Link to="/approvals" className="font-medium underline">
                  {t('request.viewRequests')}
                </Link>
              </p>
            ) : (
              <button type="button" data-testid="job-idle-extend" className={btnPrimary} onClick={() => setAsking(true)}>
                {t('jobs.idle.extend')}
              </button>
            )}
          </div>
        )}
      </section>
      {asking && (
        <Dialog title={t('jobs.idle.extendTitle', { name: job.name })} onClose={() => setAsking(false)} testId="job-idle-extend-dialog">
          <RequestForm
            kind="job-lock"
            initialJobId={job.id}
            initialUntil={extensionUntil(new Date())}
            onCancel={() => setAsking(false)}
            onCreated={(approval) => {
              setAsking(false);
              setSent(approval);
              // An extension approved at once exempts the job: the decision changes.
              void queryClient.invalidateQueries({ queryKey: jobKeys.gpu(job.id) });
            }}
          />
        </Dialog>
      )}
    </>
  );
}
