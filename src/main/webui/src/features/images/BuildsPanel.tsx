import { useContext, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { stopImageBuild } from '../../api/imageBuilds';
import type { Build } from '../../api/types';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { DataTable, type Column } from '../../components/common/DataTable';
import { describeError } from '../../components/common/errorText';
import { StatusBadge } from '../../components/common/StatusBadge';
import { td } from '../../components/common/ui';
import { formatDuration } from '../../lib/units';
import { formatDateTime } from '../../lib/time';
import { CurrentUserContext } from '../auth/session';
import { buildSeconds, buildTone, isRunning } from './buildForm';
import { buildKeys, imageBuildsQuery } from './queries';

/** One's image builds (everyone's for a platform admin who asks), refreshed while one is running. */
export function BuildsPanel() {
  const { t } = useTranslation();
  const user = useContext(CurrentUserContext);
  const [all, setAll] = useState(false);
  const list = useQuery(imageBuildsQuery(all));
  const columns: Column<Build>[] = [
    { id: 'state', header: t('imageBuilds.col.state') },
    { id: 'destination', header: t('imageBuilds.col.destination') },
    { id: 'job', header: t('imageBuilds.col.job') },
    { id: 'result', header: t('imageBuilds.col.result') },
    { id: 'started', header: t('imageBuilds.col.started') },
    { id: 'duration', header: t('imageBuilds.col.duration') },
    { id: 'actions' },
  ];
  return (
    <div className="flex flex-col gap-2">
      {user?.role === 'admin' && (
        <label className="flex items-center gap-1.5 text-sm text-slate-700">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} data-testid="builds-all" />
          {t('imageBuilds.all')}
        </label>
      )}
      <DataTable
        query={list}
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(b) => b.id}
        renderRow={(b) => <BuildRow build={b} showOwner={all} />}
        empty={{ title: t('imageBuilds.empty'), children: t('imageBuilds.emptyHint') }}
        errorTitle={t('imageBuilds.loadError')}
        testId="builds-table"
      />
    </div>
  );
}

function BuildRow({ build: b, showOwner }: { build: Build; showOwner: boolean }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const stop = useMutation({
    mutationFn: () => stopImageBuild(b.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: buildKeys.all }),
  });
  return (
    <tr className="border-t border-slate-100 align-top" data-testid={`build-${b.id}`}>
      <td className={td}>
        <StatusBadge tone={buildTone(b.state)} label={t(`imageBuilds.state.${b.state}`)} value={b.state} />
        <div className="mt-1 text-xs text-slate-500">{t(`imageBuilds.source.${b.source}`)}</div>
      </td>
      <td className={td}>
        <div className="font-mono text-xs text-slate-800">{b.destination}</div>
        {b.description && <div className="text-xs text-slate-500">{b.description}</div>}
        {showOwner && <div className="text-xs text-slate-500">{t('imageBuilds.owner', { owner: b.owner, account: b.account })}</div>}
      </td>
      <td className={td}>
        {b.job ? (
          <Link
            to={`/jobs/${encodeURIComponent(b.job)}`}
            className="font-mono text-xs text-indigo-700 hover:underline"
            data-testid="build-job"
          >
            {b.job}
          </Link>
        ) : (
          '—'
        )}
        {b.jobState && <div className="text-xs text-slate-500">{b.jobState}</div>}
      </td>
      <td className={td}>
        <BuildResult build={b} />
        {stop.error != null && (
          <div role="alert" className="mt-1 text-xs text-rose-700" data-testid="build-error">
            {describeError(stop.error, t('imageBuilds.stopFailed'))}
          </div>
        )}
      </td>
      <td className={`${td} whitespace-nowrap`}>{formatDateTime(b.createdAt, i18n.language)}</td>
      <td className={`${td} whitespace-nowrap`} data-testid="build-duration">
        {formatDuration(buildSeconds(b))}
      </td>
      <td className={`${td} whitespace-nowrap`}>
        {b.state === 'building' && (
          <ConfirmButton onConfirm={() => stop.mutate()} disabled={stop.isPending} testId="build-stop">
            {t('imageBuilds.stop')}
          </ConfirmButton>
        )}
      </td>
    </tr>
  );
}

/** On success the catalogue image and digest; on a failure the reason, detail and the builder's last log lines. */
function BuildResult({ build: b }: { build: Build }) {
  const { t } = useTranslation();
  if (b.state === 'succeeded') {
    return (
      <div className="text-xs" data-testid="build-image">
        {b.image && (
          <Link to="/images" className="font-mono text-indigo-700 hover:underline">
            {b.image}
          </Link>
        )}
        {b.digest && <div className="break-all font-mono text-slate-500">{b.digest}</div>}
      </div>
    );
  }
  if (!b.reason && !b.detail && !b.logTail)
    return <span className="text-xs text-slate-500">{isRunning(b.state) ? t('imageBuilds.running') : '—'}</span>;
  return (
    <div className="text-xs" data-testid="build-failure">
      {b.reason && <div className="font-medium text-rose-700">{b.reason}</div>}
      {b.detail && <div className="text-slate-600">{b.detail}</div>}
      {b.logTail && (
        <details className="mt-1">
          <summary className="cursor-pointer text-slate-500">{t('imageBuilds.logTail')}</summary>
          <pre
            className="mt-1 max-h-48 max-w-xl overflow-auto whitespace-pre-wrap rounded bg-slate-900 p-2 text-slate-100"
            data-testid="build-log"
          >
            {b.logTail}
          </pre>
        </details>
      )}
    </div>
  );
}
