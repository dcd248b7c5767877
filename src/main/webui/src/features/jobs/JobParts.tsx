import { useTranslation } from 'react-i18next';
import type { Reason } from '../../api/types';
import { useNow } from '../../lib/useNow';
import { useAcceleratorModels, useModelNames } from '../catalog/queries';
import { requestEntries } from './jobFormat';
import { formatReason } from './reasons';

/** A job's requests as compact chips: "4 × NVIDIA A100 80GB", "8 CPU", "32 GiB". */
export function JobRequests({ requests }: { requests: Record<string, string> }) {
  const { t } = useTranslation();
  const models = useAcceleratorModels();
  const names = new Map((models.data?.items ?? []).map((m) => [m.key, m.displayName]));
  const entries = requestEntries(requests);
  if (entries.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <span data-testid="job-requests" className="flex flex-wrap gap-1">
      {entries.map((e) => (
        <span
          key={e.resource}
          data-resource={e.resource}
          className="whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs tabular-nums text-slate-700"
        >
          {e.kind === 'cpu'
            ? t('jobs.requestCpu', { amount: e.amount })
            : e.kind === 'memory'
              ? t('jobs.requestMemory', { amount: e.amount })
              : t('jobs.requestAccelerator', { amount: e.amount, model: names.get(e.resource) ?? e.resource })}
        </span>
      ))}
    </span>
  );
}

/** Tag for a job that runs on capacity borrowed beyond the account's guarantee. */
export function BorrowingTag() {
  const { t } = useTranslation();
  return (
    <span
      data-testid="job-borrowing"
      title={t('jobs.borrowingHint')}
      className="inline-flex rounded-full bg-violet-50 px-2 py-0.5 text-xs font-medium text-violet-700 ring-1 ring-inset ring-violet-600/20"
    >
      {t('jobs.borrowing')}
    </span>
  );
}

/** Admission reasons as readable sentences with their figures. */
export function ReasonList({ reasons, testId = 'job-reason' }: { reasons: readonly Reason[]; testId?: string }) {
  const { t } = useTranslation();
  const nameOf = useModelNames();
  const now = useNow();
  return (
    <ul className="list-disc space-y-1 pl-5">
      {reasons.map((r, i) => (
        <li key={`${r.code}-${i}`} data-testid={testId} data-code={r.code} title={r.message}>
          {formatReason(r, t, now, nameOf)}
        </li>
      ))}
    </ul>
  );
}
