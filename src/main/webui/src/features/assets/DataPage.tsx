import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteAsset, refreshAsset } from '../../api/assets';
import type { Asset, AssetKind } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { describeError } from '../../components/common/errorText';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, btnSmall, inputClass, tableWrap, td, th } from '../../components/common/ui';
import { formatBytes } from '../../lib/units';
import { useMyProfile } from '../me/queries';
import { AssetDialog } from './AssetDialog';
import { DownloadsPanel } from './DownloadsPanel';
import { assetFormOf, emptyAssetForm } from './assetForm';
import { assetKeys, assetsQuery } from './queries';

/** Datasets and models the caller sees, a tab each, with register, edit, refresh and delete. */
export function DataPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<AssetKind | 'downloads'>('dataset');
  const [q, setQ] = useState('');
  const [dialog, setDialog] = useState<{ editing?: Asset } | null>(null);
  const me = useMyProfile();
  const list = useQuery({
    ...assetsQuery({ kind: kind === 'downloads' ? 'dataset' : kind, q: q.trim() || undefined, limit: 200 }),
    enabled: kind !== 'downloads',
  });
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t('assets.title')} subtitle={t('assets.subtitle')} />
      <div className="flex flex-wrap items-center gap-2">
        {(['dataset', 'model'] as const).map((k) => (
          <button
            key={k}
            type="button"
            className={k === kind ? btnPrimary : btnSecondary}
            aria-pressed={k === kind}
            onClick={() => setKind(k)}
            data-testid={`assets-tab-${k}`}
          >
            {t(`assets.tab.${k}`)}
          </button>
        ))}
        <button
          type="button"
          className={kind === 'downloads' ? btnPrimary : btnSecondary}
          aria-pressed={kind === 'downloads'}
          onClick={() => setKind('downloads')}
          data-testid="assets-tab-downloads"
        >
          {t('downloads.tab')}
        </button>
        {kind !== 'downloads' && (
          // The search filters the catalogue only: on the Downloads tab it would change nothing.
          <input
            className={`${inputClass} max-w-xs`}
            placeholder={t('assets.search')}
            value={q}
            onChange={(e) => setQ(e.target.value)}
            data-testid="assets-search"
          />
        )}
        <button type="button" className={`${btnPrimary} ml-auto`} onClick={() => setDialog({})} data-testid="assets-register">
          {t('assets.register')}
        </button>
      </div>
      {kind === 'downloads' ? (
        <DownloadsPanel />
      ) : list.isPending ? (
        <LoadingState />
      ) : list.isError ? (
        <ErrorState title={t('assets.loadError')} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={t(`assets.empty.${kind}`)}>{t('assets.emptyHint')}</EmptyState>
      ) : (
        <AssetTable items={list.data.items} onEdit={(a) => setDialog({ editing: a })} />
      )}
      {dialog && (
        <AssetDialog
          initial={dialog.editing ? assetFormOf(dialog.editing, me.data?.slug) : emptyAssetForm(kind === 'downloads' ? 'dataset' : kind)}
          editing={dialog.editing}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

function AssetTable({ items, onEdit }: { items: Asset[]; onEdit: (a: Asset) => void }) {
  const { t } = useTranslation();
  return (
    <div className={tableWrap}>
      <table className="min-w-full divide-y divide-slate-100" data-testid="assets-table">
        <thead>
          <tr>
            <th className={th}>{t('assets.col.name')}</th>
            <th className={th}>{t('assets.col.where')}</th>
            <th className={th}>{t('assets.col.size')}</th>
            <th className={th}>{t('assets.col.visibility')}</th>
            <th className={th}>{t('assets.col.tags')}</th>
            <th className={th}>{t('assets.col.owner')}</th>
            <th className={th} />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((a) => (
            <AssetRow key={a.id} asset={a} onEdit={() => onEdit(a)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AssetRow({ asset: a, onEdit }: { asset: Asset; onEdit: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const done = () => void queryClient.invalidateQueries({ queryKey: assetKeys.all });
  const refresh = useMutation({ mutationFn: () => refreshAsset(a.id), onSuccess: done });
  const remove = useMutation({ mutationFn: () => deleteAsset(a.id), onSuccess: done });
  const failed = refresh.error ?? remove.error;
  return (
    <tr data-testid={`asset-${a.name}`}>
      <td className={td}>
        <div className="font-medium text-slate-800">{a.name}</div>
        {a.description && <div className="text-xs text-slate-500">{a.description}</div>}
        {failed != null && (
          <div role="alert" className="mt-1 text-xs text-rose-700" data-testid="asset-error">
            {describeError(failed, t('assets.actionFailed'))}
          </div>
        )}
      </td>
      <td className={`${td} font-mono text-xs`}>
        {a.space}:{a.path}
      </td>
      <td className={td} title={t('assets.files', { count: a.files })}>
        {formatBytes(a.sizeBytes)}
      </td>
      <td className={td}>
        {t(`assets.visibility.${a.visibility}`)}
        {a.account && <span className="text-slate-500"> ({a.account})</span>}
      </td>
      <td className={td}>
        {a.tags.map((tag) => (
          <span key={tag} className="mr-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
            {tag}
          </span>
        ))}
      </td>
      <td className={td}>{a.owner}</td>
      <td className={`${td} whitespace-nowrap`}>
        {a.mayEdit && (
          <div className="flex gap-1">
            <button type="button" className={`${btnSecondary} ${btnSmall}`} onClick={onEdit} data-testid="asset-edit">
              {t('assets.edit')}
            </button>
            <button
              type="button"
              className={`${btnSecondary} ${btnSmall}`}
              onClick={() => refresh.mutate()}
              disabled={refresh.isPending}
              data-testid="asset-refresh"
            >
              {t('assets.refresh')}
            </button>
            <ConfirmButton onConfirm={() => remove.mutate()} disabled={remove.isPending} testId="asset-delete">
              {t('assets.delete')}
            </ConfirmButton>
          </div>
        )}
      </td>
    </tr>
  );
}
