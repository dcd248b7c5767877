import { useTranslation } from 'react-i18next';
import { btnSmall } from '../../components/common/ui';
import { formatBytes } from '../../lib/units';
import { formatReason } from '../jobs/reasons';
import { progressOf, type UploadItem } from './uploadQueue';

interface UploadPanelProps {
  items: UploadItem[];
  onCancel: (id: string) => void;
  onPause: (id: string) => void;
  onResume: (id: string) => void;
  onRetry: (id: string, overwrite?: boolean) => void;
  onClear: () => void;
}

/** Each upload with its progress bar, its state and what can be done with it (cancel, retry, replace). */
export function UploadPanel({ items, onCancel, onPause, onResume, onRetry, onClear }: UploadPanelProps) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section
      data-testid="upload-panel"
      aria-label={t('files.uploads')}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-medium text-slate-800">{t('files.uploads')}</h2>
        <button type="button" className={btnSmall} onClick={onClear}>
          {t('files.clearFinished')}
        </button>
      </div>
      <ul className="flex flex-col gap-2">
        {items.map((i) => (
          <li key={i.id} data-testid="upload-item" data-status={i.status} className="text-sm">
            <div className="flex items-center justify-between gap-2">
              <span className="truncate font-mono text-xs">{i.path}</span>
              <span className="shrink-0 text-xs text-slate-500">
                {t(`files.uploadStatus.${i.status}`)} · {formatBytes(i.loaded)} / {formatBytes(i.total)}
              </span>
            </div>
            <div
              role="progressbar"
              aria-label={i.path}
              aria-valuemin={0}
              aria-valuemax={i.total}
              aria-valuenow={i.loaded}
              className="mt-1 h-1.5 w-full overflow-hidden rounded-full bg-slate-200"
            >
              <div
                className={`h-1.5 rounded-full ${i.status === 'failed' ? 'bg-rose-500' : i.status === 'done' ? 'bg-emerald-500' : 'bg-indigo-500'}`}
                style={{ width: `${(progressOf(i) * 100).toFixed(1)}%` }}
              />
            </div>
            {i.error && (
              <p data-testid="upload-error" className="mt-1 text-xs text-rose-700">
                {i.error.reasons.length > 0 ? i.error.reasons.map((r) => formatReason(r, t)).join('; ') : i.error.message}
              </p>
            )}
            <div className="mt-1 flex gap-2">
              {i.status === 'uploading' && i.resumable && (
                <button type="button" data-testid="upload-pause" className={btnSmall} onClick={() => onPause(i.id)}>
                  {t('files.pause')}
                </button>
              )}
              {i.status === 'paused' && (
                <button type="button" data-testid="upload-resume" className={btnSmall} onClick={() => onResume(i.id)}>
                  {t('files.resume')}
                </button>
              )}
              {(i.status === 'queued' || i.status === 'uploading' || i.status === 'paused') && (
                <button type="button" data-testid="upload-cancel" className={btnSmall} onClick={() => onCancel(i.id)}>
                  {t('common.cancel')}
                </button>
              )}
              {(i.status === 'failed' || i.status === 'cancelled') && (
                <button type="button" data-testid="upload-retry" className={btnSmall} onClick={() => onRetry(i.id)}>
                  {t('common.retry')}
                </button>
              )}
              {i.status === 'failed' && i.error?.conflict && (
                <button type="button" data-testid="upload-replace" className={btnSmall} onClick={() => onRetry(i.id, true)}>
                  {t('files.replace')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
