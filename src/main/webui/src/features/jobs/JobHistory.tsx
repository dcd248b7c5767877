import { useTranslation } from 'react-i18next';
import type { JobTransition } from '../../api/types';
import { formatDateTime } from '../../lib/time';
import { useModelNames } from '../catalog/queries';
import { JobStateBadge } from './JobStateBadge';
import { historyText } from './historyText';

/** The job's state changes as a timeline, oldest first. */
export function JobHistory({ history }: { history: readonly JobTransition[] }) {
  const { t, i18n } = useTranslation();
  const nameOf = useModelNames();
  if (history.length === 0) return <p className="text-sm text-slate-500">{t('jobs.noHistory')}</p>;
  return (
    <ol data-testid="job-history" className="relative flex flex-col gap-3 border-l border-slate-200 pl-4">
      {history.map((h, i) => (
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
            <span className="text-xs text-slate-500">{formatDateTime(h.at, i18n.language)}</span>
          </span>
          {(h.reason || h.message) && (
            <span
              data-testid="job-history-text"
              data-code={h.reason ?? ''}
              title={h.message ?? undefined}
              className="mt-0.5 block text-xs text-slate-600"
            >
              {historyText(h, t, nameOf)}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
