import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fileUrl, PREVIEW_BYTES } from '../../api/files';
import type { FileEntry } from '../../api/types';
import { LoadingState } from '../../components/common/States';
import { btnSecondary } from '../../components/common/ui';
import { previewKind } from '../../lib/filePaths';
import { formatBytes } from '../../lib/units';
import { FileError } from './FileError';
import { textPreviewQuery } from './queries';

function TextPreview({ space, entry }: { space: string; entry: FileEntry }) {
  const { t } = useTranslation();
  const text = useQuery(textPreviewQuery(space, entry.path, entry.modified));
  if (text.isPending) return <LoadingState />;
  if (text.isError) return <FileError error={text.error} />;
  return (
    <>
      {entry.size > PREVIEW_BYTES && (
        <p data-testid="preview-truncated" className="mb-2 text-xs text-slate-500">
          {t('files.previewTruncated', { shown: formatBytes(PREVIEW_BYTES), size: formatBytes(entry.size) })}
        </p>
      )}
      <pre data-testid="preview-text" className="max-h-[60vh] overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-3 font-mono text-xs">
        {text.data}
      </pre>
    </>
  );
}

/** A side panel showing the start of a text file or an image, with a download link. */
export function PreviewPanel({ space, entry, onClose }: { space: string; entry: FileEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const kind = previewKind(entry.name);
  return (
    <aside
      data-testid="preview-panel"
      aria-label={t('files.preview')}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="truncate font-medium text-slate-800">{entry.name}</h2>
        <div className="flex gap-2">
          <a className={btnSecondary} href={fileUrl(space, entry.path)} download={entry.name}>
            {t('files.download')}
          </a>
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      </div>
      {kind === 'image' && (
        <img
          data-testid="preview-image"
          src={fileUrl(space, entry.path, { inline: true })}
          alt={entry.name}
          className="max-h-[60vh] max-w-full"
        />
      )}
      {kind === 'text' && <TextPreview space={space} entry={entry} />}
      {kind === null && <p className="text-sm text-slate-500">{t('files.noPreview')}</p>}
    </aside>
  );
}
