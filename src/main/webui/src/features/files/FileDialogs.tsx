import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { copyEntry, deleteEntry, makeFolder, moveEntry } from '../../api/files';
import { isApiError } from '../../api/errors';
import type { FileEntry, FileSpace, TrashEntry } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { btnDanger, btnPrimary, btnSecondary, inputClass, labelText } from '../../components/common/ui';
import { join, normalise } from '../../lib/filePaths';
import { FileError } from './FileError';
import { useSpaceLabel } from './spaceLabel';
import { trashDays } from './trash';
import { fileKeys, trashQuery } from './queries';

function useRefresh(space: string) {
  const client = useQueryClient();
  return (other?: string) => {
    void client.invalidateQueries({ queryKey: fileKeys.folders(space) });
    if (other && other !== space) void client.invalidateQueries({ queryKey: fileKeys.folders(other) });
    void client.invalidateQueries({ queryKey: fileKeys.spaces() });
    void client.invalidateQueries({ queryKey: fileKeys.trash(space) });
  };
}

export function NewFolderDialog({ space, folder, onClose }: { space: string; folder: string; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefresh(space);
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => makeFolder(space, join(folder, name)),
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() !== '') create.mutate();
  };
  return (
    <Dialog title={t('files.newFolder')} onClose={onClose} testId="new-folder-dialog">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <label className={labelText}>
          {t('files.name')}
          <input data-testid="new-folder-name" className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {create.isError && <FileError error={create.error} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="new-folder-create" className={btnPrimary} disabled={name.trim() === '' || create.isPending}>
            {t('common.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

interface TransferProps {
  mode: 'move' | 'copy';
  space: string;
  entry: FileEntry;
  /** The spaces the caller may write, any of which the entry may go to. */
  targets: FileSpace[];
  onClose: () => void;
}

/** Renames or moves an entry (mode move), or copies it (mode copy), to a path in a space the caller may write. */
export function TransferDialog({ mode, space, entry, targets, onClose }: TransferProps) {
  const { t } = useTranslation();
  const label = useSpaceLabel();
  const [to, setTo] = useState(entry.path);
  const [toSpace, setToSpace] = useState(space);
  const refresh = useRefresh(space);
  const transfer = useMutation({
    mutationFn: (overwrite: boolean) =>
      (mode === 'move' ? moveEntry : copyEntry)(space, entry.path, normalise(to), toSpace === space ? undefined : toSpace, overwrite),
    onSuccess: () => {
      refresh(toSpace);
      onClose();
    },
  });
  const conflict = isApiError(transfer.error) && transfer.error.status === 409 && entry.type === 'file';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    transfer.mutate(false);
  };
  return (
    <Dialog
      title={t(mode === 'move' ? 'files.moveTitle' : 'files.copyTitle', { name: entry.name })}
      onClose={onClose}
      testId="transfer-dialog"
    >
      <form onSubmit={submit} className="flex flex-col gap-3">
        <label className={labelText}>
          {t('files.destination')}
          <input data-testid="transfer-to" className={`${inputClass} font-mono`} value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        {targets.length > 1 && (
          <label className={labelText}>
            {t('files.destinationSpace')}
            <select data-testid="transfer-space" className={inputClass} value={toSpace} onChange={(e) => setToSpace(e.target.value)}>
              {targets.map((s) => (
                <option key={s.name} value={s.name}>
                  {label(s.name)}
                </option>
              ))}
            </select>
          </label>
        )}
        {transfer.isError && <FileError error={transfer.error} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          {conflict && (
            <button type="button" data-testid="transfer-replace" className={btnDanger} onClick={() => transfer.mutate(true)}>
              {t('files.replace')}
            </button>
          )}
          <button type="submit" data-testid="transfer-submit" className={btnPrimary} disabled={to.trim() === '' || transfer.isPending}>
            {t(mode === 'move' ? 'files.move' : 'files.copy')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Asks before moving an entry to the trash: a folder goes with everything in it, restorable for the trash's days. */
export function DeleteDialog({
  space,
  entry,
  onClose,
  onDeleted,
}: {
  space: string;
  entry: FileEntry;
  onClose: () => void;
  onDeleted: (t: TrashEntry) => void;
}) {
  const { t } = useTranslation();
  const trash = useQuery(trashQuery(space));
  const days = trashDays(trash.data);
  const refresh = useRefresh(space);
  const remove = useMutation({
    mutationFn: () => deleteEntry(space, entry.path, entry.type === 'folder'),
    onSuccess: (trashed) => {
      refresh();
      onDeleted(trashed);
      onClose();
    },
  });
  return (
    <Dialog title={t('files.deleteTitle', { name: entry.name })} onClose={onClose} testId="delete-dialog">
      <div className="flex flex-col gap-3 text-sm text-slate-700">
        {entry.type === 'folder' && <p data-testid="delete-recursive">{t('files.deleteFolder')}</p>}
        <p data-testid="delete-trash-note">{days === null ? t('files.deleteToTrash') : t('files.deleteToTrashDays', { count: days })}</p>
        {remove.isError && <FileError error={remove.error} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            data-testid="delete-confirm"
            className={btnDanger}
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            {t('files.moveToTrash')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
