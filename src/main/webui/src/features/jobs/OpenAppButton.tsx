import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { openApp } from '../../api/apps';
import type { JobSummary } from '../../api/types';
import { btnPrimary, btnSecondary } from '../../components/common/ui';
import { openErrorMessage, tabAtTheClick } from './openApp';

/**
 * "Open": asks Crater for a one-time URL on the job's own origin and opens it in a new tab. The window is opened
 * at the click (browsers block pop-ups opened later) and pointed at the URL once it arrives.
 */
export function OpenAppButton({ job, port }: { job: JobSummary; port?: number }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({ mutationFn: () => openApp(job.id, port) });
  const open = () => {
    setError(null);
    const tab = tabAtTheClick();
    mutation.mutate(undefined, {
      onSuccess: (opened) => tab.go(opened.url),
      onError: (e) => {
        tab.close();
        setError(openErrorMessage(e, t));
      },
    });
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        data-testid="job-open-app"
        className={port === undefined ? btnPrimary : btnSecondary}
        disabled={mutation.isPending}
        onClick={open}
      >
        {mutation.isPending ? t('jobs.open.opening') : port === undefined ? t(`jobs.open.${job.kind}`) : t('jobs.open.port', { port })}
      </button>
      {error && (
        <span role="alert" className="text-sm text-rose-700" data-testid="job-open-error">
          {error}
        </span>
      )}
    </span>
  );
}
