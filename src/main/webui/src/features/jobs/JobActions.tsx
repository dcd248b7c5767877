import { useContext, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/errors';
import { deleteJob, resubmitJob, stopJob } from '../../api/jobs';
import type { JobDetail, JobSummary } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { FormError } from '../../components/common/Form';
import { btnDanger, btnPrimary, btnSecondary } from '../../components/common/ui';
import { removeJob, type JobListData } from './jobEvents';
import { isFinished } from './jobState';
import { jobKeys } from './queries';
import { SaveTemplateDialog } from './SaveTemplateDialog';
import { OpenAppButton } from './OpenAppButton';
import { opensApp } from './openApp';
import { CurrentUserContext } from '../auth/session';

type Translate = (k: string) => string;

function stopErrorMessage(error: unknown, t: Translate): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.code === 'JobFinished') return t('jobs.stop.finished');
  if (error.code === 'NotJobOwner') return t('jobs.stop.notOwner');
  return undefined;
}

function deleteErrorMessage(error: unknown, t: Translate): string | undefined {
  return isApiError(error) && error.code === 'JobNotFinished' ? t('jobs.actions.deleteNotFinished') : undefined;
}

const btnDangerSolid = `${btnDanger} bg-rose-600 text-white hover:bg-rose-500`;

/** A confirmation dialog for one action on the job: text, error and Cancel / confirm buttons. */
function ConfirmDialog(props: {
  title: string;
  body: string;
  confirm: string;
  pending: string;
  testId: string;
  danger: boolean;
  mutation: { isPending: boolean; isError: boolean; error: unknown; mutate: () => void };
  errorMessage?: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { mutation } = props;
  return (
    <Dialog title={props.title} onClose={props.onClose} testId={`${props.testId}-dialog`}>
      <div className="flex flex-col gap-4">
        <p className="text-sm text-slate-600">{props.body}</p>
        {mutation.isError && <FormError error={mutation.error} message={props.errorMessage} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={props.onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            data-testid={`${props.testId}-confirm`}
            className={props.danger ? btnDangerSolid : btnPrimary}
            disabled={mutation.isPending}
            onClick={() => mutation.mutate()}
          >
            {mutation.isPending ? props.pending : props.confirm}
          </button>
        </div>
      </div>
    </Dialog>
  );
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
    <ConfirmDialog
      title={t('jobs.stop.title', { name: job.name })}
      body={t('jobs.stop.body')}
      confirm={t('jobs.stop.confirm')}
      pending={t('jobs.stop.stopping')}
      testId="job-stop"
      danger
      mutation={mutation}
      errorMessage={stopErrorMessage(mutation.error, t)}
      onClose={onClose}
    />
  );
}

function ResubmitDialog({ job, onClose }: { job: JobSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: () => resubmitJob(job.id),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
      onClose();
      void navigate(`/jobs/${encodeURIComponent(created.id)}`);
    },
  });
  return (
    <ConfirmDialog
      title={t('jobs.actions.resubmitTitle', { name: job.name })}
      body={t('jobs.actions.resubmitBody', { account: job.account })}
      confirm={t('jobs.actions.resubmitConfirm')}
      pending={t('jobs.actions.resubmitting')}
      testId="job-resubmit"
      danger={false}
      mutation={mutation}
      onClose={onClose}
    />
  );
}

function DeleteDialog({ job, onClose }: { job: JobSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: () => deleteJob(job.id),
    onSuccess: () => {
      queryClient.setQueriesData<JobListData>({ queryKey: jobKeys.lists() }, (old) => removeJob(old, job.id));
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
      void navigate('/jobs', { replace: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'JobNotFinished') void queryClient.invalidateQueries({ queryKey: jobKeys.detail(job.id) });
    },
  });
  return (
    <ConfirmDialog
      title={t('jobs.actions.deleteTitle', { name: job.name })}
      body={t('jobs.actions.deleteBody')}
      confirm={t('jobs.actions.deleteConfirm')}
      pending={t('jobs.actions.deleting')}
      testId="job-delete"
      danger
      mutation={mutation}
      errorMessage={deleteErrorMessage(mutation.error, t)}
      onClose={onClose}
    />
  );
}

type OpenDialog = 'stop' | 'resubmit' | 'delete' | 'template' | null;

/** What can be done with the job, as far as the caller's permissions allow. */
export function JobActions({ detail }: { detail: JobDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<OpenDialog>(null);
  const close = () => setOpen(null);
  const { job, permissions } = detail;
  const finished = isFinished(job.state);
  const canStop = permissions.stop && !finished && job.state !== 'Stopping';
  const canDelete = permissions.delete && finished;
  // Null outside a signed-in route (the page's tests render it alone): no Open then.
  const viewer = useContext(CurrentUserContext);

  return (
    <div className="flex flex-wrap gap-2" data-testid="job-actions">
      <Link to="/jobs" className={btnSecondary}>
        {t('jobs.back')}
      </Link>
      {viewer !== null && opensApp(job, viewer.username) && <OpenAppButton job={job} />}
      {viewer !== null && job.owner === viewer.username && job.kind !== 'tensorboard' && (
        <Link to={`/tensorboards?job=${encodeURIComponent(job.id)}`} data-testid="job-open-tensorboard" className={btnSecondary}>
          {t('jobs.openInTensorboard')}
        </Link>
      )}
      <Link
        to={`/jobs/new?from=${encodeURIComponent(job.id)}`}
        data-testid="job-clone"
        className={btnSecondary}
        title={t('jobs.actions.cloneHint')}
      >
        {t('jobs.actions.clone')}
      </Link>
      {permissions.resubmit && (
        <button
          type="button"
          data-testid="job-resubmit"
          className={btnSecondary}
          title={t('jobs.actions.resubmitHint')}
          onClick={() => setOpen('resubmit')}
        >
          {t('jobs.actions.resubmit')}
        </button>
      )}
      <button type="button" data-testid="job-save-template" className={btnSecondary} onClick={() => setOpen('template')}>
        {t('jobs.actions.saveTemplate')}
      </button>
      {canStop && (
        <button type="button" data-testid="job-stop" className={btnDanger} onClick={() => setOpen('stop')}>
          {t('jobs.stop.open')}
        </button>
      )}
      {canDelete && (
        <button type="button" data-testid="job-delete" className={btnDanger} onClick={() => setOpen('delete')}>
          {t('jobs.actions.delete')}
        </button>
      )}

      {open === 'stop' && <StopDialog job={job} onClose={close} />}
      {open === 'resubmit' && <ResubmitDialog job={job} onClose={close} />}
      {open === 'delete' && <DeleteDialog job={job} onClose={close} />}
      {open === 'template' && <SaveTemplateDialog job={job} onClose={close} />}
    </div>
  );
}
