import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteImage, validateImage } from '../../api/images';
import type { Image } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { DataTable, type Column } from '../../components/common/DataTable';
import { describeError } from '../../components/common/errorText';
import { Tabs } from '../../components/common/Form';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnPrimary, btnSecondary, btnSmall, inputClass, td } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { BuildDialog } from './BuildDialog';
import { BuildsPanel } from './BuildsPanel';
import { ImageDialog } from './ImageDialog';
import { IMAGE_KINDS, checkSummary, checkTone, checksByTag, emptyImageForm, imageFormOf } from './imageForm';
import { imageKeys, imagesQuery } from './queries';

/** The image catalogue and one's image builds: a build, once pushed, is an image of the catalogue. */
export function ImagesPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'catalogue' | 'builds'>('catalogue');
  const [building, setBuilding] = useState(false);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t('images.title')} subtitle={t('images.subtitle')} />
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <Tabs
            label={t('images.title')}
            tabs={[
              { value: 'catalogue', label: t('imageBuilds.tabCatalogue') },
              { value: 'builds', label: t('imageBuilds.tabBuilds') },
            ]}
            value={tab}
            onChange={setTab}
            testIdPrefix="images-tab"
          />
        </div>
        <button type="button" className={btnSecondary} onClick={() => setBuilding(true)} data-testid="images-build">
          {t('imageBuilds.build')}
        </button>
      </div>
      {tab === 'catalogue' ? <Catalogue /> : <BuildsPanel />}
      {building && (
        <BuildDialog
          onClose={() => setBuilding(false)}
          onStarted={() => {
            setBuilding(false);
            setTab('builds');
          }}
        />
      )}
    </div>
  );
}

/** Images the caller sees, with add, edit (and share), check and delete for their own. */
function Catalogue() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [kind, setKind] = useState('');
  const [mine, setMine] = useState(false);
  const [dialog, setDialog] = useState<{ editing?: Image } | null>(null);
  const list = useQuery(imagesQuery({ q: q.trim() || undefined, kind: kind || undefined, mine, limit: 200 }));
  const columns: Column<Image>[] = [
    { id: 'reference', header: t('images.col.reference') },
    { id: 'tags', header: t('images.col.tags') },
    { id: 'cuda', header: t('images.col.cuda') },
    { id: 'platform', header: t('images.col.platform') },
    { id: 'kinds', header: t('images.col.kinds') },
    { id: 'visibility', header: t('images.col.visibility') },
    { id: 'owner', header: t('images.col.owner') },
    { id: 'actions' },
  ];
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <input
          className={`${inputClass} max-w-xs`}
          placeholder={t('images.search')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          data-testid="images-search"
        />
        <select className={`${inputClass} max-w-[12rem]`} value={kind} onChange={(e) => setKind(e.target.value)} data-testid="images-kind">
          <option value="">{t('images.anyKind')}</option>
          {IMAGE_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-1.5 text-sm text-slate-700">
          <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} data-testid="images-mine" />
          {t('images.mine')}
        </label>
        <button type="button" className={`${btnPrimary} ml-auto`} onClick={() => setDialog({})} data-testid="images-add">
          {t('images.add')}
        </button>
      </div>
      <DataTable
        query={list}
        rows={list.data?.items ?? []}
        columns={columns}
        rowKey={(i) => i.id}
        renderRow={(i) => <ImageRow image={i} onEdit={() => setDialog({ editing: i })} />}
        empty={{ title: t('images.empty'), children: t('images.emptyHint') }}
        errorTitle={t('images.loadError')}
        testId="images-table"
      />
      {dialog && (
        <ImageDialog
          initial={dialog.editing ? imageFormOf(dialog.editing) : emptyImageForm()}
          editing={dialog.editing}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

const chip = 'mr-1 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600';

function ImageRow({ image: i, onEdit }: { image: Image; onEdit: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const done = () => void queryClient.invalidateQueries({ queryKey: imageKeys.all });
  const check = useMutation({
    mutationFn: () => validateImage(i.id),
    onSuccess: () => {
      setOpen(true);
      done();
    },
  });
  const remove = useMutation({ mutationFn: () => deleteImage(i.id), onSuccess: done });
  const failed = check.error ?? remove.error;
  const summary = checkSummary(i);
  return (
    <>
      <tr className="border-t border-slate-100" data-testid={`image-${i.id}`}>
        <td className={td}>
          <div className="font-mono text-xs font-medium text-slate-800">{i.reference}</div>
          {i.description && <div className="text-xs text-slate-500">{i.description}</div>}
          {failed != null && (
            <div role="alert" className="mt-1 text-xs text-rose-700" data-testid="image-error">
              {describeError(failed, t('images.actionFailed'))}
            </div>
          )}
        </td>
        <td className={td}>
          {i.tags.map((tag) => (
            <span key={tag} className={`${chip} font-mono`}>
              {tag}
            </span>
          ))}
          <button
            type="button"
            className="mt-1 block text-xs text-indigo-700 hover:underline"
            onClick={() => setOpen(!open)}
            data-testid="image-checks-toggle"
          >
            {summary.state === 'unchecked' ? t('images.unchecked') : t('images.checkSummary', { ok: summary.ok, total: summary.total })}
          </button>
        </td>
        <td className={td}>{i.cudaVersion ? `CUDA ${i.cudaVersion}` : t('images.noCuda')}</td>
        <td className={td}>
          <div>{i.architectures.join(', ') || '—'}</div>
          <div className="text-xs text-slate-500">{i.vendors.length > 0 ? i.vendors.join(', ') : t('images.noVendor')}</div>
        </td>
        <td className={td}>
          {i.kinds.length > 0
            ? i.kinds.map((k) => (
                <span key={k} className={chip}>
                  {k}
                </span>
              ))
            : t('images.anyKindShort')}
        </td>
        <td className={td}>
          {t(`images.visibility.${i.visibility}`)}
          {i.account && <span className="text-slate-500"> ({i.account})</span>}
          {i.sharedWith.users.length + i.sharedWith.accounts.length > 0 && (
            <div className="text-xs text-slate-500" data-testid="image-shared">
              {t('images.sharedWith', { names: [...i.sharedWith.users, ...i.sharedWith.accounts].join(', ') })}
            </div>
          )}
        </td>
        <td className={td}>{i.owner}</td>
        <td className={`${td} whitespace-nowrap`}>
          {i.mayEdit && (
            <div className="flex gap-1">
              <button
                type="button"
                className={`${btnSecondary} ${btnSmall}`}
                onClick={() => check.mutate()}
                disabled={check.isPending}
                data-testid="image-check"
              >
                {check.isPending ? t('images.checking') : t('images.check')}
              </button>
              <button type="button" className={`${btnSecondary} ${btnSmall}`} onClick={onEdit} data-testid="image-edit">
                {t('images.edit')}
              </button>
              <ConfirmButton onConfirm={() => remove.mutate()} disabled={remove.isPending} testId="image-delete">
                {t('images.delete')}
              </ConfirmButton>
            </div>
          )}
        </td>
      </tr>
      {open && <CheckRows image={i} />}
    </>
  );
}

/** The last check of each tag: its result, what the tag resolved to, why, and when. */
function CheckRows({ image }: { image: Image }) {
  const { t, i18n } = useTranslation();
  return (
    <tr className="bg-slate-50" data-testid={`image-checks-${image.id}`}>
      <td className={td} colSpan={8}>
        <table className="min-w-full text-xs">
          <tbody>
            {checksByTag(image).map(({ tag, check }) => (
              <tr key={tag} data-testid={`image-check-${tag}`}>
                <td className="py-1 pr-4 font-mono">{tag}</td>
                <td className="py-1 pr-4">
                  <StatusBadge
                    tone={checkTone(check?.result)}
                    label={t(`images.result.${check?.result ?? 'none'}`)}
                    value={check?.result ?? 'none'}
                  />
                </td>
                <td className="py-1 pr-4 font-mono text-slate-600">{check?.digest ?? ''}</td>
                <td className="py-1 pr-4 text-slate-600">{check?.detail ?? ''}</td>
                <td className="py-1 text-slate-500">{check ? formatDateTime(check.checkedAt, i18n.language) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </td>
    </tr>
  );
}
