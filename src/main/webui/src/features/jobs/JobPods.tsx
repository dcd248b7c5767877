import { useTranslation } from 'react-i18next';
import type { JobContainer, JobEvent, JobPod } from '../../api/types';
import { StatusBadge } from '../../components/common/StatusBadge';
import { card, tableWrap, td, th } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { useAcceleratorModels } from '../catalog/queries';
import { podPhaseTone } from './jobState';

function ContainerState({ container }: { container: JobContainer }) {
  const { t } = useTranslation();
  const bad = container.state === 'terminated' && container.exitCode !== null && container.exitCode !== 0;
  return (
    <li
      data-testid="job-pod-container"
      data-state={container.state}
      data-exit-code={container.exitCode ?? undefined}
      title={container.message ?? undefined}
      className="whitespace-nowrap text-xs"
    >
      <span className="font-mono text-slate-600">{container.name}</span>{' '}
      <span className={bad ? 'text-rose-700' : 'text-slate-700'}>
        {t(`jobs.pods.container.${container.state}`, { defaultValue: container.state })}
        {container.reason && ` (${container.reason})`}
        {container.exitCode !== null && `, ${t('jobs.pods.exitCode', { code: container.exitCode })}`}
      </span>
      {container.restarts > 0 && <span className="ml-1 text-amber-700">· {t('jobs.pods.restarts', { count: container.restarts })}</span>}
    </li>
  );
}

/** The job's pods as the cluster shows them now. */
export function JobPodsTable({ pods, finished }: { pods: readonly JobPod[]; finished: boolean }) {
  const { t, i18n } = useTranslation();
  const models = useAcceleratorModels();
  const names = new Map((models.data?.items ?? []).map((m) => [m.key, m.displayName]));
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold text-slate-900">{t('jobs.pods.title')}</h2>
      {pods.length === 0 ? (
        <p data-testid="job-pods-empty" className={`${card} text-sm text-slate-500`}>
          {finished ? t('jobs.pods.gone') : t('jobs.pods.none')}
        </p>
      ) : (
        <div className={tableWrap}>
          <table className="min-w-full" data-testid="job-pods">
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('jobs.pods.name')}</th>
                <th className={th}>{t('jobs.pods.task')}</th>
                <th className={th}>{t('jobs.pods.phase')}</th>
                <th className={th}>{t('jobs.pods.node')}</th>
                <th className={th}>{t('jobs.pods.accelerators')}</th>
                <th className={th}>{t('jobs.pods.started')}</th>
                <th className={th}>{t('jobs.pods.containers')}</th>
              </tr>
            </thead>
            <tbody>
              {pods.map((p) => (
                <tr
                  key={p.name}
                  data-testid="job-pod"
                  data-name={p.name}
                  data-phase={p.phase}
                  className="border-t border-slate-100 align-top"
                >
                  <td className={`${td} font-mono text-xs`}>{p.name}</td>
                  <td className={`${td} whitespace-nowrap`}>{t('jobs.pods.taskIndex', { task: p.task, index: p.index })}</td>
                  <td className={td}>
                    <StatusBadge tone={podPhaseTone(p.phase)} label={p.phase} value={p.phase} />
                  </td>
                  <td className={`${td} font-mono text-xs`}>{p.node ?? '—'}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    {p.acceleratorModel && p.accelerators > 0
                      ? t('jobs.requestAccelerator', {
                          amount: p.accelerators,
                          model: names.get(p.acceleratorModel) ?? p.acceleratorModel,
                        })
                      : '—'}
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{formatDateTime(p.startedAt, i18n.language)}</td>
                  <td className={td}>
                    {p.containers.length === 0 ? (
                      '—'
                    ) : (
                      <ul className="flex flex-col gap-0.5">
                        {p.containers.map((c) => (
                          <ContainerState key={c.name} container={c} />
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Kubernetes events about the job's objects, newest first; warnings stand out. */
export function JobEventsTable({ events }: { events: readonly JobEvent[] }) {
  const { t, i18n } = useTranslation();
  const sorted = [...events].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold text-slate-900">{t('jobs.events.title')}</h2>
      {sorted.length === 0 ? (
        <p data-testid="job-events-empty" className={`${card} text-sm text-slate-500`}>
          {t('jobs.events.none')}
        </p>
      ) : (
        <div className={tableWrap}>
          <table className="min-w-full" data-testid="job-events">
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('jobs.events.time')}</th>
                <th className={th}>{t('jobs.events.type')}</th>
                <th className={th}>{t('jobs.events.reason')}</th>
                <th className={th}>{t('jobs.events.object')}</th>
                <th className={th}>{t('jobs.events.message')}</th>
                <th className={th}>{t('jobs.events.countColumn')}</th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((e, i) => {
                const warning = e.type === 'Warning';
                return (
                  <tr
                    key={`${e.at}-${e.object}-${e.reason}-${i}`}
                    data-testid="job-event"
                    data-type={e.type}
                    data-reason={e.reason}
                    className={`border-t border-slate-100 align-top ${warning ? 'bg-amber-50/60' : ''}`}
                  >
                    <td className={`${td} whitespace-nowrap`}>{formatDateTime(e.at, i18n.language)}</td>
                    <td className={td}>
                      <StatusBadge
                        tone={warning ? 'warning' : 'neutral'}
                        label={t(`jobs.events.types.${e.type}`, { defaultValue: e.type })}
                        value={e.type}
                      />
                    </td>
                    <td className={`${td} font-medium`}>{e.reason}</td>
                    <td className={`${td} font-mono text-xs`}>{e.object}</td>
                    <td className={`${td} max-w-xl`}>{e.message}</td>
                    <td className={`${td} whitespace-nowrap tabular-nums`} data-testid="job-event-count">
                      {e.count > 1 ? t('jobs.events.count', { count: e.count }) : ''}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
