import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { restoreTrashed } from '../../api/files';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnSmall, tableWrap, td, th } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { formatBytes } from '../../lib/units';
import { FileError } from './FileError';
import { fileKeys, trashQuery } from './queries';

/** What was deleted in a space, newest first, each restorable (where the caller may write) until it expires. */
export function TrashView({ space, writable }: { space: string; writable: boolean }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const trash = useQuery(trashQuery(space));
  const restore = useMutation({
    mutationFn: (id: number) => restoreTrashed(space, id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: fileKeys.trash(space) });
      void client.invalidateQueries({ queryKey: fileKeys.folders(space) });
      void client.invalidateQueries({ queryKey: fileKeys.spaces() });
    },
  });
  if (trash.isPending) return <LoadingState />;
  if (trash.isError) return <ErrorState title={t('files.trashError')} error={trash.error} onRetry={() => void trash.refetch()} />;
  if (trash.data.length === 0) return <EmptyState title={t('files.trashEmpty')} />;
  return (
    <div className="flex flex-col gap-3">
      {restore.isError && <FileError error={restore.error} />}
      <div className={tableWrap}>
        <table data-testid="trash-table" className="min-w-full divide-y divide-slate-200">
          <thead className="bg-slate-50">
            <tr>
              <th className={th}>{t('files.path')}</th>
              <th className={th}>{t('files.size')}</th>
              <th className={th}>{t('files.deletedAt')}</th>
              <th className={th}>{t('files.expiresAt')}</th>
              <th className={th} />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {trash.data.map((e) => (
              <tr key={e.id} data-testid={`trash-row-${e.id}`}>
                <td className={`${td} font-mono`}>
                  {e.path}
                  {e.type === 'folder' && '/'}
                </td>
                <td className={td}>
                  {formatBytes(e.bytes)} · {t('files.entries', { count: e.files })}
                </td>
                <td className={td}>{formatDateTime(e.deletedAt, i18n.language)}</td>
                <td className={td}>{formatDateTime(e.expiresAt, i18n.language)}</td>
                <td className={`${td} text-right`}>
                  {writable && (
                    <button
                      type="button"
                      data-testid={`restore-${e.id}`}
                      className={btnSmall}
                      disabled={restore.isPending}
                      onClick={() => restore.mutate(e.id)}
                    >
                      {t('files.restore')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
