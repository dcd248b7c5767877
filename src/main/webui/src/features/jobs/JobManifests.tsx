import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/common/CopyButton';
import { ErrorState, LoadingState } from '../../components/common/States';
import { card } from '../../components/common/ui';
import { jobManifestsQuery } from './queries';

function ManifestsBody({ jobId }: { jobId: string }) {
  const { t } = useTranslation();
  const query = useQuery(jobManifestsQuery(jobId));
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    return <ErrorState title={t('jobs.manifests.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  }
  return (
    <div className="flex flex-col gap-2">
      <div className="flex justify-end">
        <CopyButton text={query.data} testId="job-manifests-copy" />
      </div>
      <pre
        data-testid="job-manifests-yaml"
        className="max-h-[32rem] overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
      >
        {query.data}
      </pre>
    </div>
  );
}

/** The Kubernetes objects the job became, as YAML: collapsed, fetched when first opened. */
export function JobManifests({ jobId }: { jobId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <details data-testid="job-manifests" className={card} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-semibold text-slate-900">{t('jobs.manifests.title')}</summary>
      <p className="mt-1 text-xs text-slate-500">{t('jobs.manifests.hint')}</p>
      {open && (
        <div className="mt-3">
          <ManifestsBody jobId={jobId} />
        </div>
      )}
    </details>
  );
}
