import { useTranslation } from 'react-i18next';
import type { ContainerExit, JobState } from '../../api/types';
import { card } from '../../components/common/ui';
import { exitSucceeded, explainExit, stoppedBeforeStart } from './exitReason';

/** How each container of a finished job ended, with a plain-language explanation. */
export function JobExits({
  exits,
  memoryLimit,
  state,
}: {
  exits: readonly ContainerExit[];
  memoryLimit: string | null | undefined;
  /** The job's state: a Stopped job's containers that never ran are said to be so, not "not known". */
  state?: JobState;
}) {
  const { t } = useTranslation();
  return (
    <section className={card} data-testid="job-exits">
      <h2 className="mb-3 text-sm font-semibold text-slate-900">{t('jobs.exit.title')}</h2>
      {exits.length === 0 ? (
        <p className="text-sm text-slate-500">{t('jobs.exit.none')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {exits.map((e) => {
            const notStarted = stoppedBeforeStart(e, state);
            const ok = exitSucceeded(e) || notStarted;
            return (
              <li
                key={`${e.pod}/${e.container}`}
                data-testid="job-exit"
                data-pod={e.pod}
                data-container={e.container}
                data-exit-code={e.exitCode ?? undefined}
                className={`rounded-md border-l-4 px-3 py-2 text-sm ${
                  notStarted ? 'border-slate-300 bg-slate-50' : ok ? 'border-emerald-400 bg-emerald-50/50' : 'border-rose-400 bg-rose-50/50'
                }`}
              >
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                  <span className="font-mono text-xs text-slate-600">
                    {e.pod} / {e.container}
                  </span>
                  {e.exitCode !== null && (
                    <span className="text-xs text-slate-600">
                      {t('jobs.exit.code')} <span className="font-mono font-semibold">{e.exitCode}</span>
                    </span>
                  )}
                  {e.reason && <span className="text-xs font-medium text-slate-700">{e.reason}</span>}
                </div>
                <p
                  data-testid="job-exit-explanation"
                  className={`mt-1 font-medium ${notStarted ? 'text-slate-700' : ok ? 'text-emerald-800' : 'text-rose-800'}`}
                >
                  {notStarted ? t('jobEnd.stoppedBeforeStart') : explainExit(e, t, memoryLimit)}
                </p>
                {e.message && (
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono text-xs text-slate-600">
                    {e.message}
                  </pre>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
