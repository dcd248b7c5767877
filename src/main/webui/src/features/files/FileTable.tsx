import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fileUrl } from '../../api/files';
import type { FileEntry } from '../../api/types';
import { btnSmall, tableWrap, td, th } from '../../components/common/ui';
import { folderRoute } from '../../lib/filePaths';
import { formatDateTime } from '../../lib/time';
import { formatBytes } from '../../lib/units';

interface FileTableProps {
  space: string;
  entries: FileEntry[];
  writable: boolean;
  onPreview: (e: FileEntry) => void;
  onMove: (e: FileEntry) => void;
  onCopy: (e: FileEntry) => void;
  onDelete: (e: FileEntry) => void;
}

/** A folder's entries as the server orders them (folders first, then by name), with what may be done to each. */
export function FileTable({ space, entries, writable, onPreview, onMove, onCopy, onDelete }: FileTableProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className={tableWrap}>
      <table data-testid="file-table" className="min-w-full divide-y divide-slate-200">
        <thead className="bg-slate-50">
          <tr>
            <th className={th}>{t('files.name')}</th>
            <th className={th}>{t('files.size')}</th>
            <th className={th}>{t('files.modified')}</th>
            <th className={th}>{t('files.kind')}</th>
            <th className={th} />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((e) => (
            <tr key={e.path} data-testid="file-row" data-name={e.name}>
              <td className={td}>
                {e.type === 'folder' ? (
                  <Link to={folderRoute(space, e.path)} className="font-medium text-indigo-700 hover:underline">
                    {e.name}/
                  </Link>
                ) : e.type === 'file' ? (
                  <button type="button" className="text-left text-slate-800 hover:underline" onClick={() => onPreview(e)}>
                    {e.name}
                  </button>
                ) : (
                  <span className="text-slate-500">{e.name}</span>
                )}
              </td>
              <td className={td} data-testid="file-size">
                {e.type === 'file' ? formatBytes(e.size) : '—'}
              </td>
              <td className={td}>{formatDateTime(e.modified, i18n.language)}</td>
              <td className={td}>{t(`files.type.${e.type}`)}</td>
              <td className={`${td} whitespace-nowrap text-right`}>
                <span className="inline-flex gap-1">
                  {e.type !== 'link' && (
                    <a
                      className={btnSmall}
                      data-testid="file-download"
                      href={fileUrl(space, e.path, { zip: e.type === 'folder' })}
                      download={e.type === 'folder' ? `${e.name}.zip` : e.name}
                    >
                      {t(e.type === 'folder' ? 'files.downloadZip' : 'files.download')}
                    </a>
                  )}
                  {writable && (
                    <>
                      <button type="button" data-testid="file-move" className={btnSmall} onClick={() => onMove(e)}>
                        {t('files.rename')}
                      </button>
                      {e.type !== 'link' && (
                        <button type="button" data-testid="file-copy" className={btnSmall} onClick={() => onCopy(e)}>
                          {t('files.copy')}
                        </button>
                      )}
                      <button
                        type="button"
                        data-testid="file-delete"
                        className={`${btnSmall} text-rose-700 ring-rose-300 hover:bg-rose-50`}
                        onClick={() => onDelete(e)}
                      >
                        {t('common.delete')}
                      </button>
                    </>
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
