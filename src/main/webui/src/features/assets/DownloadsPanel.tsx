import { useState } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createDownload, downloadAction, listDownloads, type Download } from '../../api/downloads';
import { isApiError } from '../../api/errors';
import { describeError } from '../../components/common/errorText';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, btnSmall, card, inputClass, labelText, tableWrap, td, th } from '../../components/common/ui';
import { formatBytes } from '../../lib/units';
import { patterns } from './downloadForm';

const downloadKeys = { all: ['downloads'] as const };

/** The downloads the caller sees, polled every 2 s while one of them runs. */
const downloadsQuery = () =>
  queryOptions({
    queryKey: downloadKeys.all,
    queryFn: ({ signal }) => listDownloads(signal),
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.state === 'running') ? 2000 : false),
  });

/** "Download from a hub": a form, then the list of downloads with their progress and actions. */
export function DownloadsPanel() {
  const { t } = useTranslation();
  const list = useQuery(downloadsQuery());
  return (
    <div className="flex flex-col gap-4">
      <DownloadForm />
      {list.isPending ? (
        <LoadingState />
      ) : list.isError ? (
        <ErrorState title={t('downloads.loadError')} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={t('downloads.empty')}>{t('downloads.emptyHint')}</EmptyState>
      ) : (
        <div className={tableWrap}>
          <table className="min-w-full divide-y divide-slate-100" data-testid="downloads-table">
            <thead>
              <tr>
                <th className={th}>{t('downloads.col.name')}</th>
                <th className={th}>{t('downloads.col.repository')}</th>
                <th className={th}>{t('downloads.col.progress')}</th>
                <th className={th}>{t('downloads.col.state')}</th>
                <th className={th} />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.data.items.map((d) => (
                <DownloadRow key={d.id} d={d} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function DownloadRow({ d }: { d: Download }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: (a: 'pause' | 'resume' | 'retry') => downloadAction(d.id, a),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: downloadKeys.all }),
  });
  return (
    <tr data-testid={`download-${d.name}`}>
      <td className={td}>
        <div className="font-medium text-slate-800">{d.name}</div>
        <div className="font-mono text-xs text-slate-500">
          {d.space}:{d.path}
        </div>
      </td>
      <td className={td}>
        <div>{d.repository}</div>
        <div className="font-mono text-xs text-slate-500" title={d.sha}>
          {d.revision} @ {d.sha.slice(0, 12)}
        </div>
      </td>
      <td className={`${td} min-w-48`}>
        <div className="h-2 w-full rounded bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={d.percent}>
          <div className="h-2 rounded bg-sky-500" style={{ width: `${d.percent}%` }} />
        </div>
        <div className="mt-1 text-xs text-slate-600" data-testid="download-bytes">
          {t('downloads.progress', {
            done: formatBytes(d.bytesDone),
            total: formatBytes(d.bytesTotal),
            percent: d.percent,
            filesDone: d.filesDone,
            files: d.files,
          })}
        </div>
      </td>
      <td className={td}>
        <div>{t(`downloads.state.${d.state}`)}</div>
        {d.message && <div className="text-xs text-rose-700">{d.message}</div>}
        {d.warnings.map((w) => (
          <div key={w} className="text-xs text-amber-700" data-testid="download-warning">
            {t('downloads.warning', { text: w })}
          </div>
        ))}
        {act.error != null && (
          <div role="alert" className="text-xs text-rose-700">
            {describeError(act.error, t('downloads.actionFailed'))}
          </div>
        )}
      </td>
      <td className={`${td} whitespace-nowrap`}>
        {d.mayEdit && (
          <div className="flex gap-1">
            {d.state === 'running' && (
              <button type="button" className={`${btnSecondary} ${btnSmall}`} onClick={() => act.mutate('pause')} disabled={act.isPending}>
                {t('downloads.pause')}
              </button>
            )}
            {d.state === 'paused' && (
              <button type="button" className={`${btnSecondary} ${btnSmall}`} onClick={() => act.mutate('resume')} disabled={act.isPending}>
                {t('downloads.resume')}
              </button>
            )}
            {d.state === 'failed' && (
              <button type="button" className={`${btnSecondary} ${btnSmall}`} onClick={() => act.mutate('retry')} disabled={act.isPending}>
                {t('downloads.retry')}
              </button>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}

function DownloadForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [f, setF] = useState({
    kind: 'model',
    hub: 'huggingface',
    repository: '',
    revision: 'main',
    include: '',
    exclude: '',
    credential: '',
    name: '',
    path: '',
  });
  const [told, setTold] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () =>
      createDownload({
        kind: f.kind === 'dataset' ? 'dataset' : 'model',
        hub: f.hub === 'modelscope' ? 'modelscope' : 'huggingface',
        repository: f.repository.trim(),
        revision: f.revision.trim() || undefined,
        include: patterns(f.include),
        exclude: patterns(f.exclude),
        credential: f.credential.trim() || undefined,
        name: f.name.trim(),
        space: 'user',
        path: f.path.trim(),
      }),
    onSuccess: (d) => {
      setTold(d.deduplicated ? t('downloads.existing', { id: d.id }) : t('downloads.started', { id: d.id }));
      void queryClient.invalidateQueries({ queryKey: downloadKeys.all });
    },
  });
  const fieldErrors = isApiError(start.error) ? start.error.fieldErrors : [];
  const errorOf = (field: string) => fieldErrors.find((e) => e.field === field)?.message;
  const input = (key: keyof typeof f, placeholder?: string) => (
    <label className="flex flex-col">
      <span className={labelText}>{t(`downloads.field.${key}`)}</span>
      <input
        className={inputClass}
        value={f[key]}
        placeholder={placeholder}
        onChange={(e) => setF({ ...f, [key]: e.target.value })}
        data-testid={`download-${key}`}
      />
      {errorOf(key) && <span className="mt-1 text-xs text-rose-700">{errorOf(key)}</span>}
    </label>
  );
  return (
    <form
      className={`${card} grid gap-3 sm:grid-cols-2`}
      onSubmit={(e) => {
        e.preventDefault();
        setTold(null);
        start.mutate();
      }}
      data-testid="download-form"
    >
      <h2 className="text-base font-semibold text-slate-800 sm:col-span-2">{t('downloads.formTitle')}</h2>
      <label className="flex flex-col">
        <span className={labelText}>{t('downloads.field.kind')}</span>
        <select className={inputClass} value={f.kind} onChange={(e) => setF({ ...f, kind: e.target.value })}>
          <option value="model">{t('assets.kind.model')}</option>
          <option value="dataset">{t('assets.kind.dataset')}</option>
        </select>
      </label>
      <label className="flex flex-col">
        <span className={labelText}>{t('downloads.field.hub')}</span>
        <select
          className={inputClass}
          value={f.hub}
          onChange={(e) => {
            const hub = e.target.value;
            // Each hub's default branch: main on Hugging Face, master on ModelScope.
            const revision = f.revision === 'main' || f.revision === 'master' ? (hub === 'modelscope' ? 'master' : 'main') : f.revision;
            setF({ ...f, hub, revision });
          }}
          data-testid="download-hub"
        >
          <option value="huggingface">{t('downloads.hub.huggingface')}</option>
          <option value="modelscope">{t('downloads.hub.modelscope')}</option>
        </select>
        {errorOf('hub') && <span className="mt-1 text-xs text-rose-700">{errorOf('hub')}</span>}
      </label>
      {input('repository', f.hub === 'modelscope' ? 'Qwen/Qwen2.5-7B-Instruct' : 'meta-llama/Llama-3-8B')}
      {input('revision', f.hub === 'modelscope' ? 'master' : 'main')}
      {input('include', '*.safetensors, *.json')}
      {input('exclude')}
      {input('credential', f.hub === 'modelscope' ? 'ms' : 'hf')}
      {input('name', 'llama-3-8b')}
      {input('path', '/models/llama-3-8b')}
      <div className="flex items-center gap-3 sm:col-span-2">
        <button type="submit" className={btnPrimary} disabled={start.isPending} data-testid="download-start">
          {t('downloads.start')}
        </button>
        {start.error != null && (
          <span role="alert" className="text-sm text-rose-700">
            {describeError(start.error, t('downloads.actionFailed'))}
          </span>
        )}
        {told && <span className="text-sm text-emerald-700">{told}</span>}
      </div>
    </form>
  );
}
