import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import type { FileEntry, TrashEntry } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { breadcrumbs, folderRoute, parent, pathFromSplat, trashRoute } from '../../lib/filePaths';
import { formatCount } from '../../lib/numbers';
import { formatDateTime } from '../../lib/time';
import { DeleteDialog, NewFolderDialog, TransferDialog } from './FileDialogs';
import { FileError } from './FileError';
import { FileTable } from './FileTable';
import { filterEntries, useFolderStream } from './folderStream';
import { PreviewPanel } from './PreviewPanel';
import { SpacePicker } from './SpacePicker';
import { useSpaceLabel } from './spaceLabel';
import { TrashView } from './TrashView';
import { UploadPanel } from './UploadPanel';
import { fromDrop, fromInput } from './pickedFiles';
import { folderQuery, spacesQuery } from './queries';
import { useUploads, type PickedFile } from './useUploads';

type Dialogs = { kind: 'mkdir' } | { kind: 'move' | 'copy'; entry: FileEntry } | { kind: 'delete'; entry: FileEntry } | null;

/** How many rows a large folder shows at first, and how many more each click adds. */
const ROWS = 500;

function Listing({
  space,
  path,
  writable,
  onDialog,
  onPreview,
}: {
  space: string;
  path: string;
  writable: boolean;
  onDialog: (d: Dialogs) => void;
  onPreview: (e: FileEntry) => void;
}) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatCount(v, i18n.language);
  const folder = useInfiniteQuery(folderQuery(space, path));
  const data = folder.data;
  const first = data?.pages[0];
  // A folder of more than one page is read whole from its event stream; page by page only if that fails.
  const large = first !== undefined && first.nextCursor !== null;
  const stream = useFolderStream(space, path, large, folder.dataUpdatedAt);
  const [filter, setFilter] = useState('');
  const [rows, setRows] = useState(ROWS);
  if (data === undefined || first === undefined) {
    if (folder.isError) return <ErrorState title={t('files.listError')} error={folder.error} onRetry={() => void folder.refetch()} />;
    return <LoadingState />;
  }
  const streamed = large && !stream.failed;
  const total = streamed && stream.done ? stream.entries.length : first.total;
  const entries = streamed ? (stream.entries.length > 0 ? stream.entries : first.items) : data.pages.flatMap((p) => p.items);
  if (entries.length === 0)
    return <EmptyState title={t('files.empty')}>{writable && <p className="mt-1">{t('files.emptyHint')}</p>}</EmptyState>;
  const matching = streamed ? filterEntries(entries, filter) : entries;
  const shown = streamed ? matching.slice(0, rows) : matching;
  return (
    <div className="flex flex-col gap-2">
      {streamed && (
        <div className="flex flex-wrap items-center gap-3">
          <input
            type="search"
            data-testid="file-filter"
            aria-label={t('files.filter')}
            placeholder={t('files.filter')}
            className={`${inputClass} max-w-xs`}
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              setRows(ROWS);
            }}
          />
          {!stream.done && (
            <span data-testid="file-streaming" role="status" className="flex items-center gap-2 text-sm text-slate-500">
              <progress className="h-2 w-32" max={Math.max(first.total, 1)} value={Math.min(stream.entries.length, first.total)} />
              {t('files.streaming', { read: n(stream.entries.length), count: first.total, total: n(first.total) })}
            </span>
          )}
        </div>
      )}
      {shown.length === 0 ? (
        <EmptyState title={t('files.filterEmpty', { text: filter.trim() })} />
      ) : (
        <FileTable
          space={space}
          entries={shown}
          writable={writable}
          onPreview={onPreview}
          onMove={(entry) => onDialog({ kind: 'move', entry })}
          onCopy={(entry) => onDialog({ kind: 'copy', entry })}
          onDelete={(entry) => onDialog({ kind: 'delete', entry })}
        />
      )}
      <div className="flex items-center justify-between text-sm text-slate-500">
        <span data-testid="file-count">
          {streamed && filter.trim() !== ''
            ? t('files.shownMatching', { shown: n(shown.length), matching: n(matching.length), count: total, total: n(total) })
            : t('files.shown', { shown: n(shown.length), count: total, total: n(total) })}
        </span>
        {streamed
          ? matching.length > shown.length && (
              <button type="button" data-testid="show-more" className={btnSecondary} onClick={() => setRows(rows + ROWS)}>
                {t('files.showMore', { count: Math.min(ROWS, matching.length - shown.length) })}
              </button>
            )
          : folder.hasNextPage && (
              <button
                type="button"
                data-testid="load-more"
                className={btnSecondary}
                disabled={folder.isFetchingNextPage}
                onClick={() => void folder.fetchNextPage()}
              >
                {t('common.loadMore')}
              </button>
            )}
      </div>
      {large && stream.failed && (
        <p data-testid="stream-failed" className="text-sm text-slate-500">
          {t('files.streamFailed')}
        </p>
      )}
      {folder.isFetchNextPageError && <FileError error={folder.error} />}
    </div>
  );
}

/** The file manager: the caller's spaces, a folder's entries, uploads, and each space's trash. */
export function FilesPage() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const [search] = useSearchParams();
  const space = params.space ?? '';
  const path = pathFromSplat(params['*']);
  const spaces = useQuery(spacesQuery());
  const label = useSpaceLabel();
  const uploads = useUploads(t('common.unexpected'));
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [preview, setPreview] = useState<FileEntry | null>(null);
  const [trashed, setTrashed] = useState<TrashEntry | null>(null);
  const [dropError, setDropError] = useState<unknown>(null);
  const [dragging, setDragging] = useState(false);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  if (spaces.isPending) return <LoadingState />;
  if (spaces.isError) return <ErrorState title={t('files.spacesError')} error={spaces.error} onRetry={() => void spaces.refetch()} />;
  if (spaces.data.length === 0) return <EmptyState title={t('files.noSpaces')} />;
  if (space === '') return <Navigate to={folderRoute(spaces.data[0]!.name, '/')} replace />;
  const current = spaces.data.find((s) => s.name === space);
  const writable = current?.access === 'rw';
  const inTrash = search.get('view') === 'trash';
  const targets = spaces.data.filter((s) => s.access === 'rw');

  const upload = (picked: PickedFile[]) => {
    setDropError(null);
    if (picked.length > 0) uploads.add(space, path, picked).catch(setDropError);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!writable || inTrash) return;
    fromDrop(e.dataTransfer).then(upload, setDropError);
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('files.title')} subtitle={t('files.subtitle')} />
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <SpacePicker spaces={spaces.data} current={space} />
        <div
          data-testid="file-drop"
          className={`flex min-w-0 flex-col gap-4 rounded-xl ${dragging ? 'ring-2 ring-indigo-400' : ''}`}
          onDragOver={(e) => {
            if (!writable || inTrash) return;
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          {current === undefined ? (
            <ErrorState title={t('files.noSuchSpace', { space })} error={null} />
          ) : (
            <>
              <div className="flex flex-wrap items-center justify-between gap-3">
                <nav aria-label={t('files.breadcrumbs')} data-testid="breadcrumbs" className="flex flex-wrap items-center gap-1 text-sm">
                  {breadcrumbs(space, path).map((c, i, all) => (
                    <span key={c.path} className="flex items-center gap-1">
                      {i > 0 && <span className="text-slate-400">/</span>}
                      {i === all.length - 1 && !inTrash ? (
                        <span aria-current="page" className="font-medium text-slate-900">
                          {c.name ?? label(space)}
                        </span>
                      ) : (
                        <Link to={c.route} className="text-indigo-700 hover:underline">
                          {c.name ?? label(space)}
                        </Link>
                      )}
                    </span>
                  ))}
                  {inTrash && <span className="font-medium text-slate-900">/ {t('files.trash')}</span>}
                </nav>
                <div className="flex flex-wrap gap-2">
                  {writable && !inTrash && (
                    <>
                      <button type="button" data-testid="upload-files" className={btnPrimary} onClick={() => filesInput.current?.click()}>
                        {t('files.uploadFiles')}
                      </button>
                      <button
                        type="button"
                        data-testid="upload-folder"
                        className={btnSecondary}
                        onClick={() => folderInput.current?.click()}
                      >
                        {t('files.uploadFolder')}
                      </button>
                      <button type="button" data-testid="new-folder" className={btnSecondary} onClick={() => setDialog({ kind: 'mkdir' })}>
                        {t('files.newFolder')}
                      </button>
                    </>
                  )}
                  <Link data-testid="trash-link" className={btnSecondary} to={inTrash ? folderRoute(space, '/') : trashRoute(space)}>
                    {inTrash ? t('files.backToFiles') : t('files.trash')}
                  </Link>
                </div>
              </div>
              <input
                ref={filesInput}
                data-testid="upload-files-input"
                type="file"
                multiple
                hidden
                onChange={(e) => {
                  upload(fromInput(e.target.files));
                  e.target.value = '';
                }}
              />
              <input
                ref={folderInput}
                type="file"
                hidden
                {...{ webkitdirectory: '' }}
                onChange={(e) => {
                  upload(fromInput(e.target.files));
                  e.target.value = '';
                }}
              />
              {!writable && (
                <p data-testid="read-only-note" className="text-sm text-slate-500">
                  {t('files.readOnlyNote')}
                </p>
              )}
              {trashed && (
                <p data-testid="trashed-note" className="rounded-md bg-slate-50 p-2 text-sm text-slate-700">
                  {t('files.trashedNote', { path: trashed.path, until: formatDateTime(trashed.expiresAt, i18n.language) })}{' '}
                  <Link to={trashRoute(space)} className="text-indigo-700 hover:underline">
                    {t('files.trash')}
                  </Link>
                </p>
              )}
              {dropError !== null && <FileError error={dropError} />}
              <UploadPanel
                items={uploads.items}
                onCancel={uploads.cancel}
                onPause={uploads.pause}
                onResume={uploads.resume}
                onRetry={uploads.retry}
                onClear={uploads.clear}
              />
              {inTrash ? (
                <TrashView space={space} writable={writable} />
              ) : (
                <div className={preview && parent(preview.path) === path ? 'grid gap-4 xl:grid-cols-[1fr_28rem]' : ''}>
                  <Listing
                    key={`${space}:${path}`}
                    space={space}
                    path={path}
                    writable={writable}
                    onDialog={setDialog}
                    onPreview={setPreview}
                  />
                  {preview && parent(preview.path) === path && (
                    <PreviewPanel space={space} entry={preview} onClose={() => setPreview(null)} />
                  )}
                </div>
              )}
            </>
          )}
        </div>
      </div>
      {dialog?.kind === 'mkdir' && <NewFolderDialog space={space} folder={path} onClose={() => setDialog(null)} />}
      {(dialog?.kind === 'move' || dialog?.kind === 'copy') && (
        <TransferDialog mode={dialog.kind} space={space} entry={dialog.entry} targets={targets} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog space={space} entry={dialog.entry} onClose={() => setDialog(null)} onDeleted={setTrashed} />
      )}
    </div>
  );
}
