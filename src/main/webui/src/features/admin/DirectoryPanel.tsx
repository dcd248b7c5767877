import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { syncDirectory } from '../../api/directory';
import type { DirectorySyncResult } from '../../api/types';
import { FormError } from '../../components/common/Form';
import { ErrorState, LoadingState } from '../../components/common/States';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnSecondary, card } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { formatDuration } from '../../lib/units';
import { outcomeTone } from './directoryOutcome';
import { directoryKeys, directoryQuery, userKeys } from './queries';

const COUNTS = ['usersChecked', 'usersLinked', 'usersDisabled', 'membershipsAdded', 'membershipsRemoved', 'membershipsChanged'] as const;

function LastSync({ sync }: { sync: DirectorySyncResult }) {
  const { t, i18n } = useTranslation();
  return (
    <div data-testid="directory-last-sync" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <StatusBadge tone={outcomeTone(sync.outcome)} label={t(`directory.outcome.${sync.outcome}`)} value={sync.outcome} />
        <span>
          {t('directory.lastSyncAt', {
            at: formatDateTime(sync.finishedAt, i18n.language),
            trigger: t(`directory.trigger.${sync.trigger}`),
          })}
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        {COUNTS.map((k) => (
          <div key={k} className="flex justify-between gap-2" data-testid={`directory-count-${k}`}>
            <dt className="text-slate-500">{t(`directory.counts.${k}`)}</dt>
            <dd className="font-medium tabular-nums text-slate-800">{sync.counts[k]}</dd>
          </div>
        ))}
      </dl>
      {sync.errors.length > 0 && (
        <div className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="directory-sync-errors">
          <p className="font-medium">{t('directory.errors', { count: sync.errors.length })}</p>
          <ul className="mt-1 list-disc pl-5">
            {sync.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The sign-in directory on the users page: where it is, its last sync with the counts, and "sync now". */
export function DirectoryPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery(directoryQuery());
  const sync = useMutation({
    mutationFn: syncDirectory,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: directoryKeys.all });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  if (query.isPending) return <LoadingState label={t('directory.loading')} />;
  if (query.isError) return <ErrorState title={t('directory.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  const d = query.data;
  if (!d.enabled) {
    return (
      <p className="text-sm text-slate-500" data-testid="directory-off">
        {t('directory.off')}
      </p>
    );
  }
  return (
    <section className={`${card} flex flex-col gap-4`} data-testid="directory-panel">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">{t('directory.title')}</h2>
          <p className="text-sm text-slate-600" data-testid="directory-where">
            {t('directory.where', {
              provider: d.provider,
              url: d.url ?? '',
              mode: t(`directory.mode.${d.mode}`),
              tls: d.startTls ? t('directory.startTls') : '',
            })}
          </p>
          <p className="text-sm text-slate-500">
            {d.syncIntervalSeconds > 0
              ? t('directory.every', { interval: formatDuration(d.syncIntervalSeconds), count: d.groupMappings })
              : t('directory.manualOnly', { count: d.groupMappings })}
          </p>
        </div>
        <button type="button" data-testid="directory-sync" className={btnSecondary} disabled={sync.isPending} onClick={() => sync.mutate()}>
          {sync.isPending ? t('directory.syncing') : t('directory.syncNow')}
        </button>
      </div>
      <FormError error={sync.error} />
      {d.lastSync ? <LastSync sync={d.lastSync} /> : <p className="text-sm text-slate-500">{t('directory.neverSynced')}</p>}
    </section>
  );
}
