import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { deleteTensorboard, openTensorboard, startTensorboard, stopTensorboard } from '../../api/tensorboards';
import type { Tensorboard } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { DataTable, type Column } from '../../components/common/DataTable';
import { describeError } from '../../components/common/errorText';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnPrimary, btnSecondary, btnSmall, td } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { openErrorMessage, tabAtTheClick } from '../jobs/openApp';
import { tensorboardKeys, tensorboardsQuery } from './queries';
import { TensorboardDialog } from './TensorboardDialog';
import { emptyTensorboardForm, panelTone, stopped } from './tensorboardForm';

/** One's TensorBoard panels: state, Open, Stop/Start, Delete, and a form to make one (`?job=` starts it from a job). */
export function TensorboardsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const fromJob = params.get('job') ?? undefined;
  const [creating, setCreating] = useState(fromJob !== undefined);
  const list = useQuery(tensorboardsQuery());
  const columns: Column<Tensorboard>[] = [
    { id: 'name', header: t('tensorboards.col.name') },
    { id: 'state', header: t('tensorboards.col.state') },
    { id: 'sources', header: t('tensorboards.col.sources') },
    { id: 'used', header: t('tensorboards.col.lastUsed') },
    { id: 'actions' },
  ];
  const close = () => {
    setCreating(false);
    if (fromJob) setParams({});
  };
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t('tensorboards.title')} subtitle={t('tensorboards.subtitle')} />
      <div className="flex">
        <button type="button" className={`${btnPrimary} ml-auto`} onClick={() => setCreating(true)} data-testid="tensorboards-create">
          {t('tensorboards.create')}
        </button>
      </div>
      <DataTable
        query={list}
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(p) => p.id}
        renderRow={(p) => <PanelRow panel={p} />}
        empty={{ title: t('tensorboards.empty'), children: t('tensorboards.emptyHint') }}
        errorTitle={t('tensorboards.loadError')}
        testId="tensorboards-table"
      />
      {creating && <TensorboardDialog initial={emptyTensorboardForm(fromJob)} onClose={close} />}
    </div>
  );
}

function PanelRow({ panel: p }: { panel: Tensorboard }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [openError, setOpenError] = useState<string | null>(null);
  const done = () => void queryClient.invalidateQueries({ queryKey: tensorboardKeys.all });
  const stop = useMutation({ mutationFn: () => stopTensorboard(p.id), onSuccess: done });
  const start = useMutation({ mutationFn: () => startTensorboard(p.id), onSuccess: done });
  const remove = useMutation({ mutationFn: () => deleteTensorboard(p.id), onSuccess: done });
  const open = useMutation({ mutationFn: () => openTensorboard(p.id) });
  const onOpen = () => {
    setOpenError(null);
    const tab = tabAtTheClick();
    open.mutate(undefined, {
      onSuccess: (opened) => tab.go(opened.url),
      onError: (e) => {
        tab.close();
        setOpenError(openErrorMessage(e, t));
      },
    });
  };
  const failed = stop.error ?? start.error ?? remove.error;
  return (
    <tr className="border-t border-slate-100" data-testid={`tensorboard-${p.id}`}>
      <td className={td}>
        <div className="font-medium text-slate-800">{p.name}</div>
        {p.job && (
          <Link to={`/jobs/${p.job}`} className="font-mono text-xs text-indigo-700 hover:underline">
            {p.job}
          </Link>
        )}
        {p.account && <span className="text-xs text-slate-500"> · {p.account}</span>}
        {(failed != null || openError) && (
          <div role="alert" className="mt-1 text-xs text-rose-700" data-testid="tensorboard-error">
            {openError ?? describeError(failed, t('tensorboards.actionFailed'))}
          </div>
        )}
      </td>
      <td className={td}>
        <StatusBadge tone={panelTone(p)} label={t(`tensorboards.state.${p.state}`, { defaultValue: p.state })} value={p.state} />
        {stopped(p) && p.stoppedReason && (
          <div className="text-xs text-slate-500" data-testid="tensorboard-reason">
            {t(`tensorboards.reason.${p.stoppedReason}`, { defaultValue: p.stoppedReason })}
          </div>
        )}
      </td>
      <td className={td}>
        {p.sources.map((s) => (
          <div key={s.mountPath} className="text-xs">
            <span className="font-medium">{s.name}</span>{' '}
            <span className="font-mono text-slate-500">{s.job ? t('tensorboards.jobSource', { job: s.job }) : `${s.space}:${s.path}`}</span>
          </div>
        ))}
      </td>
      <td className={td}>{p.lastUsedAt ? formatDateTime(p.lastUsedAt, i18n.language) : t('tensorboards.neverUsed')}</td>
      <td className={`${td} whitespace-nowrap`}>
        <div className="flex gap-1">
          {p.state === 'Running' && (
            <button
              type="button"
              className={`${btnPrimary} ${btnSmall}`}
              onClick={onOpen}
              disabled={open.isPending}
              data-testid="tensorboard-open"
            >
              {t('tensorboards.open')}
            </button>
          )}
          {stopped(p) ? (
            <button
              type="button"
              className={`${btnSecondary} ${btnSmall}`}
              onClick={() => start.mutate()}
              disabled={start.isPending}
              data-testid="tensorboard-start"
            >
              {t('tensorboards.start')}
            </button>
          ) : (
            <button
              type="button"
              className={`${btnSecondary} ${btnSmall}`}
              onClick={() => stop.mutate()}
              disabled={stop.isPending}
              data-testid="tensorboard-stop"
            >
              {t('tensorboards.stop')}
            </button>
          )}
          <ConfirmButton onConfirm={() => remove.mutate()} disabled={remove.isPending} testId="tensorboard-delete">
            {t('tensorboards.delete')}
          </ConfirmButton>
        </div>
      </td>
    </tr>
  );
}
